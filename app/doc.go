// Package app is the application layer's shared vocabulary: one sub-package per question the
// tool answers (mpipapp: what do these mpiP profiles say and how many processes to use; …),
// each with Run(ctx, Request) (*Result, error). The command line, the explorer and the HTML
// report are callers of the same Run, so they give one answer under the same rules and
// refusals. This package holds what the sub-packages share: the classification of errors by
// fault class (exit codes) and the sizing tables.
package app
