/*
 * bench/relacy/stack.c - a Treiber stack: two threads each push their own
 * node, then pop one; both pops must succeed with different nodes.  Nodes
 * are never freed or reused, so there is no ABA: correct.  The weft twin of
 * rl_tests.cpp's stack_test, for bench/relacy.sh.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct node {
	struct node *_Atomic next;
	int value;
};

static struct node *_Atomic top;
static struct node nodes[2];
static int popped[2];

static void push(struct node *n)
{
	struct node *t = atomic_load_explicit(&top, memory_order_relaxed);
	do
		atomic_store_explicit(&n->next, t, memory_order_relaxed);
	while (!atomic_compare_exchange_weak_explicit(&top, &t, n, memory_order_release,
						      memory_order_relaxed));
}

static int pop(void)
{
	struct node *t = atomic_load_explicit(&top, memory_order_acquire);
	while (t && !atomic_compare_exchange_weak_explicit(&top, &t,
			atomic_load_explicit(&t->next, memory_order_relaxed),
			memory_order_acquire, memory_order_acquire))
		;
	return t ? t->value : -1;
}

static void *worker(void *arg)
{
	int i = (int)(size_t)arg;
	nodes[i].value = i + 1;
	push(&nodes[i]);
	popped[i] = pop();
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (size_t i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(popped[0] > 0 && popped[1] > 0 && popped[0] != popped[1]);
	return 0;
}
