/*
 * tests/test_unmanaged.c - outside a managed execution the weft atomics are plain
 * C11 atomics: the fixed counter, hammered by real pthreads, counts exactly.
 */
#include <pthread.h>

#include "check.h"

#define WEFT_COUNTER_FIXED
#include "../targets/counter.c"

#define THREADS 4
#define INCREMENTS 100000

static void *hammer(void *instance)
{
	const weft_op *inc = &weft_fuzz_target()->ops[0];
	for (int i = 0; i < INCREMENTS; i++)
		inc->run(instance, NULL);
	return NULL;
}

int main(void)
{
	void *instance = weft_fuzz_target()->setup();
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, hammer, instance) == 0, "pthread_create");
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	uint32_t value = atomic_load(&((counter *)instance)->value);
	CHECK(value == THREADS * INCREMENTS, "counted %u, expected %d", value, THREADS * INCREMENTS);
	weft_fuzz_target()->teardown(instance);
	return check_summary("test_unmanaged");
}
