// Package network is the testbed's emulated network: where the processes
// of a run live (Hosts) and how each emulated NIC is shaped.
//
// With root and iproute2, Open builds one network namespace per host,
// joined by veth pairs (MTU 9001) to a Linux bridge in a switch
// namespace, and Shape puts an HTB tree at the link rate on both ends of
// every veth: pure TCP ACKs first, GSO aggregates of at most two MTUs,
// 1 ms of burst and queues that hold every byte HTTP/2 flow control lets
// a run's connections have in flight; a Link stretched k× (time dilation)
// keeps burst and queues in bytes and stretches TCP's minimum
// retransmission timeout. Without them every process runs on
// 127.0.0.1 and shapes its own connections with a token bucket per
// direction (Shaper, Bucket). The mode of each (Netns, Loopback and the
// earlier NetnsNoGSO and NetnsTBF) is recorded in every dataset;
// BurstTime is what a mode's burst adds to a step. The measurements
// behind each choice are in the engine/testbed doc ("Network") and in
// datasets/testbed/README.md.
package network
