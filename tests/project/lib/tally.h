/* tests/project/lib/tally.h - a tally shared by worker threads (libtally.a). */
#ifndef TALLY_H
#define TALLY_H
#ifdef __cplusplus
extern "C" {
#endif

struct tally {
	long count;   /* additions so far */
	long sum;     /* their total */
};

void tally_init(struct tally *t);
void tally_add(struct tally *t, long n);
int tally_check(const struct tally *t, long count, long sum);

#ifdef __cplusplus
}
#endif
#endif
