/*
 * targets/correct/once_config.c - correct corpus (issue 30): a configuration
 * built once by pthread_once, on the first use by any of three threads.  Each
 * reads both fields after its pthread_once call; main asserts the builder ran
 * exactly once.
 */
#include <assert.h>
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct { int width, height; } config;
static int builds;

static void build(void)
{
	config.width = 4;
	config.height = 3;
	builds++;
}

static void *user(void *arg)
{
	(void)arg;
	pthread_once(&once, build);
	assert(config.width * config.height == 12);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, user, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert(builds == 1);
	return 0;
}
