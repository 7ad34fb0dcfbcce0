/*
 * targets/plain_check_then_use.c - check-then-use of a pointer another thread
 * clears: an ordinary pthread program, no weft in sight, built with weft's
 * compiler pass (CMake: weft_add_program ... INSTRUMENT).
 *
 * Program: a cache holds the current configuration behind a plain pointer.
 * A reader thread looks up the timeout twice (a config read is cheap, so it
 * reads the pointer each time); a reloader thread drops the configuration
 * (sets the pointer to NULL) while a new one is prepared, then installs it.
 * config_timeout() asserts it is given a configuration.
 * Seeded bug (default build): the reader tests `current` and then reads it
 * again to use it: between the test and the use the reloader can clear it.
 * Fixed build (-DWEFT_PLAIN_CHECK_THEN_USE_FIXED): the reader loads the
 * pointer once into a local and tests and uses that.
 *
 * Known minimal failing interleaving: 2 preemptions.  The reader tests
 * `current` (non-NULL) and is preempted before loading it again; the reloader
 * clears it and is preempted before installing the new one; the reader passes
 * NULL to config_timeout(): assertion.  Oracle: the program's own assert().
 * The fixed build still has a data race on `current` (a plain pointer written
 * and read by two threads): WEFT_RACES=1 reports it; the crash is gone.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

struct config {
	int timeout;
};

static struct config first = { 30 }, second = { 60 };
static struct config *current;     /* read without a lock: the bug's subject */

static int config_timeout(const struct config *c)
{
	assert(c != NULL);
	return c->timeout;
}

static void *reader(void *arg)
{
	int *sum = arg;
	for (int i = 0; i < 2; i++) {
#ifdef WEFT_PLAIN_CHECK_THEN_USE_FIXED
		struct config *c = current;
		if (c != NULL)
			*sum += config_timeout(c);
#else
		if (current != NULL)
			*sum += config_timeout(current);
#endif
	}
	return NULL;
}

static void *reloader(void *arg)
{
	(void)arg;
	current = NULL;        /* dropped while the new one is prepared */
	second.timeout = 45;
	current = &second;
	return NULL;
}

int main(void)
{
	pthread_t r, w;
	int sum = 0;
	current = &first;
	pthread_create(&r, NULL, reader, &sum);
	pthread_create(&w, NULL, reloader, NULL);
	pthread_join(r, NULL);
	pthread_join(w, NULL);
	assert(sum >= 0);
	return 0;
}
