// Package funclen holds the project's check that no non-test function outside generated
// code is longer than MaxLines lines (style.md: no non-test function over 80 lines). It
// has no code of its own, only the test.
package funclen

// MaxLines is the longest a non-test function may be, in lines from func to the closing
// brace.
const MaxLines = 80
