/*
 * tests/test_site_ids.c - a site's id through the execution's cache
 * (scheduler/trace.h, sched_site_id_cached) is always the id its contents
 * hash to: a program's globals are restored before every execution, its
 * sites' ids with them (issue 33), and the cache gives them back; a site
 * whose id was reset and whose file, line, kind or column changed at the same
 * address gets the new contents' id, never the remembered one; many sites
 * (more than the cache holds) all get their own.
 */
#include <string.h>

#include "check.h"
#include "../scheduler/trace.h"

static sched_site_cache cache;

/* The id the contents hash to, from a copy the cache never saw. */
static uint32_t fresh_id(const weft_site *site, uint32_t column)
{
	weft_site copy = *site;
	copy.id = 0;
	return sched_site_id_column(&copy, column);
}

static void test_same_address_new_contents(void)
{
	static weft_site s = { "dir/file.c", 10, WEFT_ACCESS_LOAD, 0 };
	uint32_t first = sched_site_id_cached(&cache, &s, 0);
	CHECK(first == fresh_id(&s, 0) && s.id == first, "the hash, kept in the site");
	s.id = 0;   /* as a program's globals restore does */
	CHECK(sched_site_id_cached(&cache, &s, 0) == first, "restored: the same id");
	s.id = 0;
	s.line = 11;
	CHECK(sched_site_id_cached(&cache, &s, 0) == fresh_id(&s, 0) &&
	      s.id != first, "another line at the same address: its own id");
	s.id = 0;
	s.kind = WEFT_ACCESS_STORE;
	CHECK(sched_site_id_cached(&cache, &s, 0) == fresh_id(&s, 0), "another kind: its own id");
	s.id = 0;
	CHECK(sched_site_id_cached(&cache, &s, 7) == fresh_id(&s, 7) &&
	      fresh_id(&s, 7) != fresh_id(&s, 0), "another column: its own id");
	s.id = 0;
	s.file = "other/name.c";
	CHECK(sched_site_id_cached(&cache, &s, 7) == fresh_id(&s, 7), "another file: its own id");
}

static void test_many_sites(void)
{
	static weft_site sites[1000];
	static uint32_t want[1000];
	for (int i = 0; i < 1000; i++) {
		sites[i] = (weft_site){ "many.c", i + 1, (weft_access)(1 + i % 3), 0 };
		want[i] = fresh_id(&sites[i], (uint32_t)(i % 5));
	}
	int wrong = 0;
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 1000; i++) {
			sites[i].id = 0;
			wrong += sched_site_id_cached(&cache, &sites[i], (uint32_t)(i % 5)) != want[i];
		}
	CHECK(wrong == 0, "%d of 3000 lookups gave another site's id", wrong);
}

int main(void)
{
	test_same_address_new_contents();
	test_many_sites();
	return check_summary("test_site_ids");
}
