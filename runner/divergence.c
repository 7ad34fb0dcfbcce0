/*
 * runner/divergence.c - a trace copied, and compared with another (divergence.h).
 */
#include "divergence.h"

#include <stdlib.h>
#include <string.h>

int runner_trace_copy_save(runner_trace_copy *c, const sched_trace *t)
{
	if (t->n > c->cap) {
		sched_event *more = realloc(c->events, t->n * sizeof *more);
		if (!more)
			return -1;
		c->events = more;
		c->cap = t->n;
	}
	if (t->n)
		memcpy(c->events, t->events, t->n * sizeof *t->events);
	c->n = t->n;
	return 0;
}

static int same_event(const sched_event *a, const sched_event *b)
{
	return a->kind == b->kind && a->thread == b->thread && a->other == b->other &&
	       a->site_id == b->site_id && a->value == b->value;
}

long runner_trace_first_divergence(const runner_trace_copy *c, const sched_trace *t)
{
	size_t n = t->n < c->n ? t->n : c->n;
	for (size_t i = 0; i < n; i++)
		if (!same_event(&c->events[i], &t->events[i]))
			return (long)i;
	return t->n == c->n ? -1 : (long)n;
}
