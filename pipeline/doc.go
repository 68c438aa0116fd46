// Package pipeline implements the bottleneck-bandwidth model of cooperating tasks of
// Juhász & Charaf, "Performance Modelling of Cooperating Tasks in PC Clusters"
// (003_dbbec26301f53bc6.txt), and its optimal cluster size.
//
// A job of N elements is fed in at one node and its result is expected back there. Its
// stages overlap, so each stage runs at the speed of its slowest resource (eq. 2, 3):
//
//	t_stage = N / min_i b_i(p, s)
//
// and the total is the sum of the stage times and of fixed terms (eq. 4):
//
//	t_total(p) = t_read + t_proc(s) + t_local(N/p) + t_write.
//
// Bandwidths are in elements per second and may depend on the cluster size p and the block
// size s: a constant (storage, gathering), distribution with latency s/(l_n + s/b_n)
// (eq. 1), processing s/(c·s·ln s) (eq. 7), and merge resolution s·p/(c·(N + s·p²)) (eq. 9).
// Fixed terms: c·s·ln s for the last block (eq. 6, 13), c·N/p local resolution (eq. 8, 14),
// or a constant.
//
// The optimal cluster size is found numerically over whole p, and, where the write stage is
// bounded by merge resolution against a constant, by the closed form of eq. (19):
//
//	p* = (1 − √(1 − 4·N·(b·c)²/s)) / (2·b·c)
//
// the smaller p at which b_resolution(p) = b (003 uses b = b_gather).
package pipeline
