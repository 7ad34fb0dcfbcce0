/*
 * bench/relacy/rl_tests.cpp - the four small tests of bench/relacy.sh written
 * for Relacy (Debian's relacy-dev, header-only; never vendored here), so that
 * weft's executions per CPU-second can be set beside Relacy's on the same
 * work (issue 33).  Each test is the twin of one program in this folder
 * (counter.c, message_pass.c, seqlock.c, stack.c): the same atomics, the
 * same memory orders, the same check.  Both are correct: every iteration
 * runs to the end, so the rate is the scheduler's and not a search's luck.
 *
 * Usage: rl_tests TEST ITERATIONS; prints "relacy TEST ITERATIONS" and exits
 * 0 when Relacy found nothing (Relacy's own "total time" and "throughput"
 * lines are on stdout too).  Relacy's random scheduler is the comparison:
 * weft's random walk is the same strategy (the next thread uniformly among
 * the runnable ones at every switch point).
 *
 * relacy.hpp, not relacy_std.hpp: the latter's `using rl::atomic` clashes
 * with libstdc++ 12's std::atomic, so the rl:: names are spelled out.
 */
#include <relacy/relacy.hpp>

#include <cstdlib>
#include <cstring>

struct counter_test : rl::test_suite<counter_test, 2> {
	rl::atomic<int> n;
	void before() { n($).store(0, rl::mo_relaxed); }
	void thread(unsigned) { n($).fetch_add(1, rl::mo_seq_cst); }
	void after() { RL_ASSERT(n($).load(rl::mo_relaxed) == 2); }
};

struct message_pass_test : rl::test_suite<message_pass_test, 2> {
	rl::atomic<int> data, flag;
	void before()
	{
		data($).store(0, rl::mo_relaxed);
		flag($).store(0, rl::mo_relaxed);
	}
	void thread(unsigned i)
	{
		if (i == 0) {
			data($).store(42, rl::mo_relaxed);
			flag($).store(1, rl::mo_release);
		} else if (flag($).load(rl::mo_acquire)) {
			RL_ASSERT(data($).load(rl::mo_relaxed) == 42);
		}
	}
};

struct seqlock_test : rl::test_suite<seqlock_test, 2> {
	rl::atomic<int> seq, a, b;
	void before()
	{
		seq($).store(0, rl::mo_relaxed);
		a($).store(0, rl::mo_relaxed);
		b($).store(0, rl::mo_relaxed);
	}
	void thread(unsigned i)
	{
		if (i == 0) {   /* writer */
			int s = seq($).load(rl::mo_relaxed);
			seq($).store(s + 1, rl::mo_relaxed);
			rl::atomic_thread_fence(rl::mo_release, $);
			a($).store(1, rl::mo_relaxed);
			b($).store(1, rl::mo_relaxed);
			seq($).store(s + 2, rl::mo_release);
		} else {        /* reader: one attempt */
			int s1 = seq($).load(rl::mo_acquire);
			int a1 = a($).load(rl::mo_relaxed);
			int b1 = b($).load(rl::mo_relaxed);
			rl::atomic_thread_fence(rl::mo_acquire, $);
			int s2 = seq($).load(rl::mo_relaxed);
			if (s1 == s2 && (s1 & 1) == 0)
				RL_ASSERT(a1 == b1);
		}
	}
};

struct stack_test : rl::test_suite<stack_test, 2> {
	struct node {
		rl::atomic<node *> next;
		rl::var<int> value;
	};
	rl::atomic<node *> top;
	node nodes[2];
	int popped[2];
	void before() { top($).store(0, rl::mo_relaxed); }
	void push(node *n)
	{
		node *t = top($).load(rl::mo_relaxed);
		do
			n->next($).store(t, rl::mo_relaxed);
		while (!top($).compare_exchange_weak(t, n, rl::mo_release, rl::mo_relaxed));
	}
	int pop()
	{
		node *t = top($).load(rl::mo_acquire);
		while (t && !top($).compare_exchange_weak(t, t->next($).load(rl::mo_relaxed),
							  rl::mo_acquire, rl::mo_acquire))
			;
		return t ? (int)t->value($) : -1;
	}
	void thread(unsigned i)
	{
		nodes[i].value($) = (int)i + 1;
		push(&nodes[i]);
		popped[i] = pop();
	}
	void after() { RL_ASSERT(popped[0] > 0 && popped[1] > 0 && popped[0] != popped[1]); }
};

template <typename T> static int run(unsigned long iterations)
{
	rl::test_params p;
	p.iteration_count = iterations;
	p.search_type = rl::random_scheduler_type;
	return rl::simulate<T>(p) ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		std::fprintf(stderr, "usage: %s counter|message_pass|seqlock|stack ITERATIONS\n", argv[0]);
		return 2;
	}
	unsigned long n = std::strtoul(argv[2], 0, 10);
	std::printf("relacy %s %lu\n", argv[1], n);
	if (!std::strcmp(argv[1], "counter")) return run<counter_test>(n);
	if (!std::strcmp(argv[1], "message_pass")) return run<message_pass_test>(n);
	if (!std::strcmp(argv[1], "seqlock")) return run<seqlock_test>(n);
	if (!std::strcmp(argv[1], "stack")) return run<stack_test>(n);
	std::fprintf(stderr, "%s: unknown test '%s'\n", argv[0], argv[1]);
	return 2;
}
