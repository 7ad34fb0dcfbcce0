/*
 * targets/correct/join_publish.c - correct corpus (issue 30): data handed over
 * by thread creation and join alone.  main fills a plain array, then creates
 * two workers, each summing its half into its own result struct; main reads
 * the results after joining.  No lock, no atomic: pthread_create and
 * pthread_join order everything.
 */
#include <assert.h>
#include <pthread.h>

enum { N = 8 };
static int input[N];
struct half { int from, sum; };

static void *summer(void *arg)
{
	struct half *h = arg;
	for (int i = h->from; i < h->from + N / 2; i++)
		h->sum += input[i];
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	struct half halves[2] = { { 0, 0 }, { N / 2, 0 } };
	for (int i = 0; i < N; i++)
		input[i] = i + 1;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, summer, &halves[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(halves[0].sum == 10 && halves[1].sum == 26);
	return 0;
}
