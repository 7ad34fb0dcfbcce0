/*
 * targets/plain_two_stage.c - a two-stage atomicity violation: an ordinary
 * pthread program, no weft in sight, built with weft's compiler pass (CMake:
 * weft_add_program ... INSTRUMENT).
 *
 * Program: a bounded log of CAP entries under one mutex; main fills all but
 * one slot, then two writers append one entry each (a full log is skipped:
 * log_append() returns 0) and main checks that the log holds CAP entries.
 * Seeded bug (default build): log_append() checks for room in one critical
 * section and appends in a second one; each section is correct, but another
 * writer may append between them, and the second writer then appends past
 * the end.  Fixed build (-DWEFT_PLAIN_TWO_STAGE_FIXED): check and append in
 * one critical section.
 *
 * Known minimal failing interleaving: 1 preemption.  Writer 1 sees room and
 * is preempted right after its unlock (the after-release switch point);
 * writer 2 checks and appends the last entry; writer 1 re-takes the lock and
 * appends to a full log.  Oracle: the capacity assert() in log_append().
 */
#include <assert.h>
#include <pthread.h>

#define CAP 4

struct log {
	pthread_mutex_t lock;
	int len;
	int entries[CAP];
};

static struct log the_log = { PTHREAD_MUTEX_INITIALIZER, 0, { 0 } };

static int log_append(struct log *l, int value)
{
#ifdef WEFT_PLAIN_TWO_STAGE_FIXED
	pthread_mutex_lock(&l->lock);
	int room = l->len < CAP;
	if (room)
		l->entries[l->len++] = value;
	pthread_mutex_unlock(&l->lock);
	return room;
#else
	pthread_mutex_lock(&l->lock);
	int room = l->len < CAP;
	pthread_mutex_unlock(&l->lock);
	if (!room)
		return 0;
	pthread_mutex_lock(&l->lock);   /* bug: the room checked may be gone */
	assert(l->len < CAP);
	l->entries[l->len++] = value;
	pthread_mutex_unlock(&l->lock);
	return 1;
#endif
}

static void *writer(void *arg)
{
	log_append(&the_log, *(int *)arg);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	int va = 100, vb = 200;
	the_log.len = 0;
	for (int i = 0; i < CAP - 1; i++)
		log_append(&the_log, i);
	pthread_create(&a, NULL, writer, &va);
	pthread_create(&b, NULL, writer, &vb);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(the_log.len == CAP);
	return 0;
}
