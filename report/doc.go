// Package report renders results for people and programs: aligned text tables, CSV, JSON
// (which refuses NaN and ±Inf instead of writing invalid numbers), and line/heat-map figures
// saved as SVG or PNG through gonum/plot. It knows nothing of queueing models.
package report
