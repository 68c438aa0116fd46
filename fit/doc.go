// Package fit fits models to measurements by nonlinear least squares: a Levenberg–Marquardt
// solver with box bounds (gonum has none), confidence intervals from the Jacobian,
// bootstrap on request, information criteria and cross-validation for model selection, and
// the fits of 000 §5.2 / 001 §6.2 — inferring an SPMD application's hidden characteristics
// (σ_p, σ_r0, σ_r, r, w, σ_n …) from an observed speedup surface — with Amdahl's law and the
// Universal Scalability Law as baselines.
package fit
