// Package answer builds the answer block every command's result starts with
// (report.Answer: one sentence and its facts) from the library's results. The command line,
// the HTML report and the explorer call the same functions, so they give one answer under
// the same rules: a bottleneck is qn.SaturationOf's, a recommended configuration is the
// sizing rule's, an extrapolation's interval is scaling's.
//
// Wording rules: the summary is one sentence that answers the question the command is for
// (where does it saturate? how many processors? what limits it?); every symbol in it is
// named in words; numbers carry their unit; where the data cannot answer, the summary says
// so and why (the refusal in words), never a number.
package answer
