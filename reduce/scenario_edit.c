/*
 * reduce/scenario_edit.c - structural edits of a decoded scenario for the
 * simplifier (simplify.c) and the rescheduler (reschedule.c): remove a
 * preemption, a call, a thread; rebuild a scenario from new thread lists
 * (calls exchanged, moved, or two threads merged), each call keeping its
 * preemption records so that the same trace points stay preempted.
 * Scenarios are thread-major (thread t's calls are contiguous) and the plan
 * is in call order; every edit keeps both.
 */
#include "scenario_edit.h"

#include <string.h>

void reduce_remove_plan(input_scenario *s, unsigned p)
{
	memmove(&s->plan[p], &s->plan[p + 1], (s->n_plan - p - 1) * sizeof s->plan[0]);
	s->n_plan--;
	for (unsigned c = 0; c <= s->n_calls; c++)
		if (s->first_plan[c] > p)
			s->first_plan[c]--;
}

void reduce_remove_call(input_scenario *s, unsigned call)
{
	while (s->first_plan[call + 1] > s->first_plan[call])
		reduce_remove_plan(s, s->first_plan[call]);
	memmove(&s->calls[call], &s->calls[call + 1], (s->n_calls - call - 1) * sizeof s->calls[0]);
	memmove(&s->first_plan[call], &s->first_plan[call + 1],
		(s->n_calls - call) * sizeof s->first_plan[0]);
	s->n_calls--;
	for (unsigned t = 0; t <= s->n_threads; t++)
		if (s->first_call[t] > call)
			s->first_call[t]--;
}

void reduce_remove_thread(input_scenario *s, unsigned thread)
{
	while (s->first_call[thread + 1] > s->first_call[thread])
		reduce_remove_call(s, s->first_call[thread]);
	memmove(&s->first_call[thread], &s->first_call[thread + 1],
		(s->n_threads - thread) * sizeof s->first_call[0]);
	s->n_threads--;
	for (unsigned c = 0; c < s->n_calls; c++)
		if (s->calls[c].thread > thread)
			s->calls[c].thread--;
}

/*
 * A plan's thread `to`, renumbered.  It names a thread modulo the slots
 * (input/schedule_bytes.c): a data structure's threads, or a program's 128
 * (INPUT_MAX_THREADS), of which only the first n_threads are listed; a
 * thread not listed keeps its number (renumbering it modulo the listed
 * threads made a thread edit of a large program switch to another thread).
 */
static uint8_t renumbered(const input_scenario *in, const reduce_lists *l, uint8_t to,
			  const input_bounds *b)
{
	unsigned slots = b->program ? b->max_threads : in->n_threads;
	unsigned t = slots ? to % slots : 0;
	return (uint8_t)(t < in->n_threads ? l->renumber[t] : t);
}

/* Rebuild `out` from `in` with the thread lists `l`, keeping each call's plan. */
void reduce_rebuild(input_scenario *out, const input_scenario *in, const reduce_lists *l,
		    const input_bounds *b)
{
	out->n_threads = l->n_threads;
	out->n_calls = 0;
	out->n_plan = 0;
	for (unsigned t = 0; t < l->n_threads; t++) {
		out->first_call[t] = out->n_calls;
		for (unsigned i = 0; i < l->n[t]; i++) {
			unsigned old = l->call[t][i], c = out->n_calls++;
			out->calls[c] = in->calls[old];
			out->calls[c].thread = t;
			out->first_plan[c] = out->n_plan;
			for (unsigned p = in->first_plan[old]; p < in->first_plan[old + 1]; p++) {
				out->plan[out->n_plan] = in->plan[p];
				out->plan[out->n_plan++].to = renumbered(in, l, in->plan[p].to, b);
			}
		}
	}
	out->first_call[l->n_threads] = out->n_calls;
	out->first_plan[out->n_calls] = out->n_plan;
}

void reduce_lists_of(reduce_lists *l, const input_scenario *s)
{
	l->n_threads = s->n_threads;
	for (unsigned t = 0; t < s->n_threads; t++) {
		l->n[t] = 0;
		for (unsigned c = s->first_call[t]; c < s->first_call[t + 1]; c++)
			l->call[t][l->n[t]++] = c;
		l->renumber[t] = t;
	}
}

/* Lists with thread a's calls put before (after = 0) or after b's, a dropped. */
void reduce_merge_lists(reduce_lists *l, const input_scenario *s, unsigned a, unsigned b, int after)
{
	reduce_lists src;
	reduce_lists_of(&src, s);
	l->n_threads = 0;
	for (unsigned t = 0; t < s->n_threads; t++) {
		if (t == a)
			continue;
		unsigned nt = l->n_threads++;
		l->renumber[t] = nt;
		l->n[nt] = 0;
		if (t == b && after)
			for (unsigned i = 0; i < src.n[t]; i++)
				l->call[nt][l->n[nt]++] = src.call[t][i];
		if (t == b)
			for (unsigned i = 0; i < src.n[a]; i++)
				l->call[nt][l->n[nt]++] = src.call[a][i];
		if (!(t == b && after))
			for (unsigned i = 0; i < src.n[t]; i++)
				l->call[nt][l->n[nt]++] = src.call[t][i];
	}
	l->renumber[a] = l->renumber[b];
}

/* Lists with threads a and b exchanged (each list keeps its calls' plans). */
void reduce_swap_lists(reduce_lists *l, const input_scenario *s, unsigned a, unsigned b)
{
	reduce_lists_of(l, s);
	l->n[a] = l->n[b] = 0;
	for (unsigned c = s->first_call[a]; c < s->first_call[a + 1]; c++)
		l->call[b][l->n[b]++] = c;
	for (unsigned c = s->first_call[b]; c < s->first_call[b + 1]; c++)
		l->call[a][l->n[a]++] = c;
	l->renumber[a] = b;
	l->renumber[b] = a;
}
