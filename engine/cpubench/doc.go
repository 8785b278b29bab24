// Package cpubench reports the CPU time per op of a benchmark
// ("cpu-ns/op"), the number that holds when other work shares the machine
// (the hot-path benchmarks of engine/mva and engine/sched use it).
package cpubench
