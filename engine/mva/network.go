package mva

import "math"

// network is a Model with identical classes merged into types, so the
// recursion runs over per-type counts. Merging is exact: every MVA formula
// used here is symmetric in identical classes, so the ungrouped recursion
// gives the same value at every population vector with the same per-type
// counts. Only classes with a positive population appear.
type network struct {
	kinds     []Kind
	stations  int
	demand    []float64 // [t*stations+l], seconds
	count     []int     // population of type t (sum over its classes)
	unit      []bool    // every class of type t has population 1
	members   [][]int   // model class indices of type t
	anyHybrid bool
}

// buildNetwork merges classes with bit-identical demand rows. When g uses
// a per-class utilization, only classes of population 1 are merged: then a
// type at count c holds c identical present classes and the per-class
// utilization is ρ_type/c at every population vector, as in the ungrouped
// recursion.
func buildNetwork(m Model, perClass bool) *network {
	L := len(m.Stations)
	nw := &network{kinds: make([]Kind, L), stations: L}
	for l, st := range m.Stations {
		nw.kinds[l] = st.Kind
		if st.Kind == HybridLink {
			nw.anyHybrid = true
		}
	}
	index := map[string]int{}
	key := make([]byte, 0, 8*L)
	for k, c := range m.Classes {
		if c.Population == 0 {
			continue
		}
		mergeable := !perClass || c.Population == 1
		t := -1
		if mergeable {
			key = key[:0]
			for _, d := range c.Demands {
				b := math.Float64bits(d)
				for i := 0; i < 8; i++ {
					key = append(key, byte(b>>(8*i)))
				}
			}
			if i, ok := index[string(key)]; ok {
				t = i
			} else {
				index[string(key)] = len(nw.count)
			}
		}
		if t < 0 {
			t = len(nw.count)
			nw.demand = append(nw.demand, c.Demands...)
			nw.count = append(nw.count, 0)
			nw.unit = append(nw.unit, true)
			nw.members = append(nw.members, nil)
		}
		nw.count[t] += c.Population
		nw.unit[t] = nw.unit[t] && c.Population == 1
		nw.members[t] = append(nw.members[t], k)
	}
	return nw
}

// types returns the number of class types.
func (nw *network) types() int { return len(nw.count) }
