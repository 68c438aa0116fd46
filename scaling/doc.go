// Package scaling extrapolates measured scaling data — run times T at process counts p — to
// process counts that have not been run, and says how far to trust the answer.
//
// Fitting is on relative residuals r = (T_model(p) − T)/T, so a point at p = 1 taking an hour
// and one at p = 512 taking ten seconds count alike (an unweighted fit lets the large times
// dominate; issue 22 measured 126–352 % median extrapolation errors that way). Every model is
// positive by construction: non-negative coefficients on positive basis functions, or USL's
// T₁ > 0, 0 ≤ σ ≤ 1, κ ≥ 0.
//
// Candidates (see Candidates):
//
//	Amdahl        T(p) = c₀ + c₁/p                         serial fraction f = c₀/(c₀ + c₁)
//	USL           T(p) = T₁·(1 + σ(p−1) + κ·p(p−1))/p      N_max = sqrt((1−σ)/κ)   (Gunther)
//	Gustafson     T(p) = c₀ + c₁·p        (weak scaling: scaled serial work grows with p)
//	constant      T(p) = c₀               (ideal weak scaling)
//	Extra-P       T(p) = c₀ + Σₖ cₖ·p^iₖ·log₂^jₖ(p), one or two terms, the performance-model
//	              normal form of Calotoiu et al. (SC'13) with i ∈ {0, 1/4, 1/3, 1/2, 2/3, 3/4,
//	              1, 5/4, 4/3, 3/2, 5/3, 7/4, 2}, j ∈ {0, 1, 2}; for strong scaling the first
//	              term decays (i ∈ −{1/2, 2/3, 3/4, 1, 5/4, 4/3, 3/2}, j ∈ {0, 1}) and the
//	              second grows, so computation shrinks while communication may grow.
//
// The linear families are solved exactly as non-negative least squares (every support of at
// most three columns is solved and the best feasible one kept); USL by the bounded
// Levenberg–Marquardt of package fit.
//
// Selection is by held-out prediction error, not by fit quality: forward-chaining
// ("leave-last-out": fit on the points below each of the largest distinct p, predict it) and
// leave-one-out cross-validation, on the log ratio of predicted to observed time; among the
// models within one standard error of the best score the simplest wins (a named law before
// an Extra-P form of the same size). AICc is reported but does not choose.
//
// Ties: scores within 1e-9 of each other (tieTol) rank equal, and equal models are ordered by
// a fixed rule, never by rounding: fewest free parameters, then a named law in the order
// constant, Amdahl, Gustafson, USL, then the Extra-P forms in candidate order (the mildest
// exponent first: smallest |i|, then the lowest log power). With two distinct p no model of
// two or more coefficients can be cross-validated: the models are ranked by their fit's RMS
// relative error, every two-coefficient form through both points fits exactly (and AICc, with
// n ≤ k+1, is undefined), so the rule picks among the exact fits; Result.Validated is false
// and the notes say the selection was a tie broken by the rule.
//
// Intervals: the 95 % prediction interval is multiplicative (positive by construction),
// exp(±t₀.₉₇₅,ν·sqrt(s² + se² + e²)) around the prediction (ν by Welch–Satterthwaite: e² rests
// on only the few forward-chaining folds), with s² the relative noise
// (replicates' pure error when there are replicates), se the parameters' standard error at
// the predicted p and e the chosen model's own forward-chaining error, widened where needed
// to contain every plausible model's prediction (far beyond the data the models' disagreement
// outgrows the parametric band). Its coverage is
// measured on the corpus in testdata/scaling (docs/extrapolation.md). With fewer than
// MinPointsForInterval distinct p there is no interval: the spread of the plausible models is
// reported instead.
package scaling
