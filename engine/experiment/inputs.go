package experiment

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// inputReads records which [inputs] names a kind read through its Env
// (Input, InputPath), so that a name no kind reads, usually a misspelt
// one ("measurd" for "measured"), is an error instead of an input
// silently ignored. A kind may read inputs from several goroutines.
type inputReads struct {
	mu   sync.Mutex
	read map[string]bool
}

// mark records that the named input was read.
func (r *inputReads) mark(name string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.read == nil {
		r.read = map[string]bool{}
	}
	r.read[name] = true
}

// unread returns the names of inputs, in order, that were never read.
func (r *inputReads) unread(inputs map[string]string) (unread, read []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		if r.read[name] {
			read = append(read, name)
		} else {
			unread = append(unread, name)
		}
	}
	return unread, read
}

// trackInputs makes e record the inputs its kind reads (runOne does it
// before the kind runs; an Env built elsewhere, as in a kind's tests,
// records nothing).
func (e *Env) trackInputs() { e.reads = &inputReads{} }

// checkInputsRead reports the first [inputs] name (in name order) the
// kind did not read, at its file:line, with the names it did read. Only a
// kind that ran to the end is checked.
func (e *Env) checkInputsRead() error {
	if e.reads == nil {
		return nil
	}
	unread, read := e.reads.unread(e.Spec.Inputs)
	if len(unread) == 0 {
		return nil
	}
	did := "no input"
	if len(read) > 0 {
		did = strings.Join(read, ", ")
	}
	return e.Spec.Errorf([]string{"inputs", unread[0]}, "input %q is not read by kind %q with these parameters and models (it read: %s); "+
		"a misspelt name? remove it or fix it (nothing written)", unread[0], e.Spec.Kind, did)
}
