// Package mva solves closed multi-class product-form queueing networks by
// Mean Value Analysis, as used by mascots18 (Lin, Paolieri, Chou,
// Golubchik, MASCOTS'18, §III and §VII) to predict the throughput of
// asynchronous SGD with a parameter server.
//
// # Model
//
// A Model has Stations of kind Delay (infinite server), PS (processor
// sharing), FCFS (exponential first-come first-served), DeterministicFCFS
// and HybridLink, and Classes with an integer population and one service
// demand (seconds) per station. Every class visits every station once per
// cycle (visit ratio 1, as in mascots18 Fig. 6); a zero demand means the
// class skips the station and its response time there is 0, also under
// Eq. 2. Solve returns per-class throughput (jobs/s), per-station per-class
// response time (s), queue length (jobs) and utilization, and the system
// throughput Σ_k X_k.
//
// # Equations (mascots18 §III, CATALOGUE §B.4.1–B.4.3)
//
//   - Eq. 1 (PS, FCFS): T_k^l(n) = S_k^l·[1 + Σ_j N_j^l(n−e_k)]; Delay: T = S.
//     X_k(n) = n_k/Σ_l T_k^l(n), N = X·T (Little), ρ = X·S.
//   - Eq. 2 (DeterministicFCFS, Reiser's approximation):
//     T_k^l(n) = S_k^l + Σ_j S_j^l·[N_j^l(n−e_k) − ½·ρ_j^l(n−e_k)].
//   - Eq. 3 (HybridLink): T = γ·T^PS + (1−γ)·T^FCFS with T^PS from Eq. 1,
//     T^FCFS from Eq. 2 and γ = g(ρ) clamped to [0, 1].
//   - Eq. 4 (default g, Eq4): g(ρ) = (ρ−0.8)/0.2 for ρ ≥ 0.8, else 0.
//     mascots18 says g is specific to its CPU cluster; Ramp builds others.
//
// The Recursive method visits every population vector n ≤ n*, level by
// level in total population, and keeps only two levels in memory.
// Identical classes (bit-identical demand rows) are merged, so the
// recursion runs over per-type counts: K homogeneous workers cost
// O(K·stations), not 2^K. Merging is exact because every equation above is
// symmetric in identical classes (the tests compare against an ungrouped
// brute-force recursion to 1e-9). With a per-class g argument only classes
// of population 1 are merged, which keeps per-class utilizations exact.
//
// The BardSchweitzer method replaces the recursion with the fixed point
// N_k(n−e_k) ≈ ((n_k−1)/n_k)·N_k(n), applied alike to the utilizations of
// Eq. 2 and to the g argument; it errors when it does not converge within
// Options.MaxIterations.
//
// The Fig. 6 network is built by Network (heterogeneous workers) and
// solved for K = 1..maxWorkers homogeneous workers by Curve in one
// recursion pass. Its K per-worker IS stations are one Delay station with
// per-class demands, which is equivalent for IS. Multiple parameter servers
// (§VII) divide S^U, S^S and S^D by m (Phases.WithServers).
//
// # Decisions on ambiguities (CATALOGUE §D.2)
//
//   - M-7, argument of g. Eq. 3 writes g(ρ_k^l(n)), a per-class utilization
//     at the current population, which is circular inside the recursion,
//     and for K homogeneous workers ρ_k ≤ 1/K rarely reaches 0.8, so the
//     hybrid collapses to approximate MVA (the test confirms this for the
//     Fig. 7 inputs). The stated intent, γ close to 1 "under heavy load", is
//     about the link. Default (TotalAtArrival, Variant Hybrid): total link
//     utilization Σ_j ρ_j^l(n−e_k), the state seen at arrival, which is not
//     circular. Options: TotalFixedPoint (Σ_j ρ_j^l(n) by a fixed point),
//     ClassFixedPoint (ρ_k^l(n), Eq. 3 as printed) and
//     ClassAtArrival. The variants give different numbers; all four
//     CATALOGUE §A.4 Fig. 7 rows (exact, approximate, hybrid at n−1,
//     hybrid fixed point) are reproduced to 1e-3 by the tests.
//   - M-8. Eq. 1 at an FCFS station is exact only for exponential,
//     class-independent service; the package applies Eq. 1 to FCFS as the
//     paper does, also with class-dependent demands, where it is an
//     approximation. Approximate MVA (Eq. 2) is not monotone in general
//     (Fig. 11b) and it can exceed a station's capacity: one deterministic
//     station without think time gives X(2) = 4/(3S) > 1/S, and the Fig. 6
//     network with phases 10/100/90/10 ms peaks at 1.024× the uplink bound.
//     Results are reported as computed, not clamped.
//   - M-4. Curve element K−1 is the throughput with K workers plus the
//     parameter server(s). Whether "w nodes" of the scheduler means w−1
//     workers, and what a 1-node job runs at, is the caller's decision.
//   - M-13. The package takes phase times as given (e.g. the Fig. 7
//     S^W = 29 ms, S^S = 18 ms, S^U = S^D = 72 ms) and never derives them from
//     layer sizes.
//   - M-16. Phases.WithServers assumes a uniform parameter split and
//     synchronous server completions, as §VII states.
//
// Fixed points (the hybrid fixed point over the g arguments of the
// HybridLink stations, and BardSchweitzer over per-customer queue lengths
// and throughputs) take safeguarded Anderson mixing steps (multi-secant)
// with mixing factor Options.Damping (default 0.5 for the hybrid fixed
// point, 1 for BardSchweitzer), fall back to the damped iteration when the
// steps stall, and return an error after MaxIterations. The hybrid fixed
// point starts from the previously solved population vector's solution,
// Curve's Bard–Schweitzer from the solution with K−1 workers. They stop at
// the same residual tolerance as the plain iteration. Classes of
// population 0 report zero throughput, response time and queue length.
package mva
