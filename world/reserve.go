package world

import "github.com/collide-go/collide/contact"

// Reserve gives the buffers in which Step gathers contacts room for n
// contacts per worker and writes them once, so that a Step finding up to
// n contacts neither grows them nor touches memory for the first time (a
// simulation calls it before its timed loop). It changes no result.
func (w *World) Reserve(n int) {
	for _, wk := range w.workers {
		if cap(wk.out) < n {
			wk.out = make([]Contact, n)
		}
		if cap(wk.recs) < n {
			wk.recs = make([]contact.Contact, n)
		}
		clear(wk.out[:cap(wk.out)])
		clear(wk.recs[:cap(wk.recs)])
		wk.out, wk.recs = wk.out[:0], wk.recs[:0]
	}
}
