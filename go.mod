module github.com/clusterperf/clusterperf

go 1.26
