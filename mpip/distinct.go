package mpip

import (
	"crypto/sha256"
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
)

// CheckDistinct refuses a report given twice: two of files (read into datas) with the same
// contents, whatever their names (the same path twice, a copy, a link). Each report is a
// run; the same run counted twice would weigh its point double in every fit and backtest.
// The error wraps fault.ErrInput and names both arguments.
func CheckDistinct(files []string, datas [][]byte) error {
	seen := make(map[[sha256.Size]byte]int, len(files))
	for i, d := range datas {
		sum := sha256.Sum256(d)
		if j, dup := seen[sum]; dup {
			return fmt.Errorf("%w: %s and %s are the same report (identical contents): give each run once", fault.ErrInput, files[j], files[i])
		}
		seen[sum] = i
	}
	return nil
}
