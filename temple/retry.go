package temple

// Retry (Params.Retry; not in the paper, off in the paper presets) defers a new template: a pair
// whose m_s own samples match no library template within τ̂ keeps sampling and tries again at
// 2·m_s, 4·m_s, … own samples; only when it is known by its own samples unmatched, or at the end
// of the task, does it become a new template.

// retryAttempt reports whether pair i, past m_s own samples and not identified, tries again at
// this one: at 2·m_s, 4·m_s, … and when it became known.
func (o *OTempLe) retryAttempt(i int) bool {
	n := o.own.At(i)
	if n <= o.p.Ms {
		return false
	}
	k := n / o.p.Ms
	return n%o.p.Ms == 0 && k&(k-1) == 0 || o.st.Known(i)
}

// defers reports whether pair i, which matched no template, waits for a later attempt rather
// than becoming a new template now: unless the task ends or the pair is known by its own samples.
func (o *OTempLe) defers(i int, endOfTask bool) bool {
	if endOfTask || o.st.Known(i) {
		return false
	}
	o.deferred++
	return true
}

// identifyDeferred gives the library, at the end of the task, the samples of the pairs still
// deferred: each is identified with its closest template within τ̂ or added as a new one.
func (o *OTempLe) identifyDeferred() {
	for i := range o.ident.Len() {
		if o.ident.At(i) < 0 && o.pending.N(i) >= o.p.Ms {
			o.identify(i, true)
		}
	}
}
