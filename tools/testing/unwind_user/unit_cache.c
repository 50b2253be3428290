// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the frame cache (cache.c), and a walk through it.
 */
#include "unit.h"

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* The row cache (kernel/unwind/cache.c) */

extern int slab_fail_next;

static struct unwind_user_frame cache_frame(s32 off)
{
	return (struct unwind_user_frame) {
		.cfa = SP(off), .ra = AT_CFA(-8), .fp = AT_CFA(-off),
		.sp_off = off & 1, .signal = off & 2,
	};
}

/* The next pc after @pc that lands in @pc's set. */
static unsigned long cache_collider(unsigned long pc)
{
	unsigned long other;

	for (other = pc + 1; ; other++) {
		if (unwind_user_cache_slot(other) == unwind_user_cache_slot(pc))
			return other;
	}
}

static void test_cache_rows(void)
{
	struct unwind_user_frame a = cache_frame(16), b = cache_frame(35), got;
	struct unwind_user_cache_stats st;
	struct unwind_user_cache *c;
	unsigned long pc = 0x401234, other = pc, i, hits;
	unsigned int cost = 0;

	slab_fail_next = 1;
	CHECK(!unwind_user_cache_alloc(), "allocated without memory");
	c = unwind_user_cache_alloc();
	CHECK(c, "no cache");
	if (!c)
		return;

	/* A new cache knows nothing, not even pc 0 of generation 0. */
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost), "empty: hit");
	CHECK(!unwind_user_cache_lookup(c, 0, 8, 0, &got, &cost), "empty row: hit");

	unwind_user_cache_insert(c, pc, 8, 1, &a, 7);
	memset(&got, 0x5a, sizeof(got));
	CHECK(unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost) && frame_eq(&got, &a) &&
	      got.sp_off == a.sp_off, "hit: other frame");
	CHECK(cost == 7, "hit: cost %u, want the lookup's 7", cost);
	CHECK(!unwind_user_cache_lookup(c, pc + 1, 8, 1, &got, &cost), "other pc: hit");
	CHECK(!unwind_user_cache_lookup(c, pc, 4, 1, &got, &cost), "other word size: hit");
	/* Any change of the registry bumps the generation: a miss. */
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost), "next generation: hit");
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 0, &got, &cost), "older generation: hit");

	/* The row is replaced by what a lookup under a new generation found. */
	unwind_user_cache_insert(c, pc, 8, 2, &b, 7);
	CHECK(unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost) && frame_eq(&got, &b) &&
	      got.sp_off == b.sp_off, "new generation: other frame");
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost), "old row still there");

	/*
	 * Eviction: the pcs of a set share its rows, the oldest goes first.
	 * The row of the older generation was replaced, it took no room.
	 */
	for (i = 0; i < UNWIND_USER_CACHE_WAYS - 1; i++) {
		other = cache_collider(other);
		unwind_user_cache_insert(c, other, 8, 2, &a, 7);
	}
	CHECK(unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost) && frame_eq(&got, &b),
	      "evicted with room left in the set");
	CHECK(unwind_user_cache_lookup(c, other, 8, 2, &got, &cost) && frame_eq(&got, &a),
	      "the newest pc: miss");
	other = cache_collider(other);
	unwind_user_cache_insert(c, other, 8, 2, &a, 7);
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost), "oldest row not evicted");
	CHECK(unwind_user_cache_lookup(c, other, 8, 2, &got, &cost) && frame_eq(&got, &a),
	      "the new pc: miss");

	unwind_user_cache_get_stats(c, &st);
	CHECK(st.hits == 5 && st.misses == 8, "stats: %lu hits, %lu misses",
	      st.hits, st.misses);

	/* Bounded: many more pcs than rows, no more rows than the bound hit. */
	for (i = 0; i < 16 * UNWIND_USER_CACHE_ROWS; i++)
		unwind_user_cache_insert(c, 0x10000 + 4 * i, 8, 3, &a, 7);
	for (i = hits = 0; i < 16 * UNWIND_USER_CACHE_ROWS; i++)
		hits += unwind_user_cache_lookup(c, 0x10000 + 4 * i, 8, 3, &got, &cost);
	unwind_user_cache_get_stats(c, &st);
	CHECK(hits > 0 && hits <= UNWIND_USER_CACHE_ROWS,
	      "%lu hits among %lu rows", hits, (unsigned long)UNWIND_USER_CACHE_ROWS);
	CHECK(st.rows == UNWIND_USER_CACHE_ROWS &&
	      st.bytes >= st.rows * sizeof(struct unwind_user_frame) &&
	      st.bytes <= 96 * st.rows, "%lu rows in %lu bytes", st.rows, st.bytes);
	unwind_user_cache_free(c);
}

UNIT_TEST(test_cache_rows, "row cache: hit, miss, generation, word size, eviction, bound",
	  0);

/*
 * "No FDE covers this pc" is a row too: found again as such, with its
 * cost, under its generation only; no frame a walk can use looks like it.
 */
static void test_cache_none(void)
{
	struct unwind_user_frame none, got, a = cache_frame(16);
	struct unwind_user_cache *c = unwind_user_cache_alloc();
	unsigned long pc = 0x402000;
	unsigned int cost = 0;

	CHECK(c, "no cache");
	if (!c)
		return;
	unwind_user_frame_set_none(&none);
	CHECK(unwind_user_frame_is_none(&none) && !unwind_user_frame_is_none(&a),
	      "a none frame is not told from a frame");
	unwind_user_cache_insert(c, pc, 8, 1, &none, 3);
	memset(&got, 0x5a, sizeof(got));
	CHECK(unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost) &&
	      unwind_user_frame_is_none(&got) && cost == 3,
	      "none row: not found as such (cost %u)", cost);
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost),
	      "none row: found under the next generation");
	/* A frame found later for the pc replaces it. */
	unwind_user_cache_insert(c, pc, 8, 1, &a, 7);
	CHECK(unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost) &&
	      !unwind_user_frame_is_none(&got) && frame_eq(&got, &a),
	      "the frame did not replace the none row");
	unwind_user_cache_free(c);
}

UNIT_TEST(test_cache_none, "row cache: a pc no FDE covers, kept as a row", 0);

/* The registry's lookup with the cache in front, as registry.c has it. */
struct unwind_user_cache *unit_cache;
static u64 unit_gen = 1;

int find_cached(unsigned long pc, unsigned int *budget,
		struct unwind_user_frame *frame)
{
	int ret;

	unsigned int cost, before = *budget;

	if (unwind_user_cache_lookup(unit_cache, pc, 8, unit_gen, frame,
				     &cost)) {
		if (cost > *budget) {
			*budget = 0;
			return -EOPNOTSUPP;
		}
		*budget -= cost;
		return 0;
	}
	ret = unit_lookup(pc, frame, budget);
	if (!ret)
		unwind_user_cache_insert(unit_cache, pc, 8, unit_gen, frame,
					 before - *budget);
	return ret;
}

/* One FDE at F0 whose CFA is sp + @off from F0 + 1 on. */
static int cache_object(u8 off)
{
	const u8 insns[] = { DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, off };

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	return setup();
}

/*
 * dlclose() and dlopen() of another object at the same address: the
 * registry's erase and add bump the generation, and the old object's row,
 * still in the cache, is never used.  A warm lookup reads no table.
 */
static void test_cache_same_address(void)
{
	const struct unwind_user_frame want16 = {
		.cfa = SP(16), .ra = AT_CFA(-8), .fp = RETAIN,
	}, want48 = {
		.cfa = SP(48), .ra = AT_CFA(-8), .fp = RETAIN,
	};
	struct unwind_user_frame f, old;
	unsigned int budget = UNWIND_USER_TABLE_BUDGET;

	unit_cache = unwind_user_cache_alloc();
	CHECK(unit_cache, "no cache");
	if (!unit_cache)
		return;

	CHECK(!cache_object(16), "first object");
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want16),
	      "first object: cold");
	fake_user_copies = 0;
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want16),
	      "first object: warm");
	CHECK(!fake_user_copies, "warm lookup: %lu reads", fake_user_copies);
	old = f;

	/* Unmapped, then another object mapped and registered there. */
	unit_gen += 2;
	CHECK(!cache_object(48), "second object");
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want48),
	      "second object: the first one's frame");
	CHECK(fake_user_copies, "second object: not looked up");
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want48),
	      "second object, warm: the first one's frame");
	/* Only the generation tells them apart: the same pc, other rules. */
	CHECK(!frame_eq(&old, &f), "the objects have the same rules");

	/* A pc the table does not cover is no row: looked up every time. */
	fake_user_copies = 0;
	CHECK(find_cached(F0 + 0x100, &budget, &f) == -ENOENT, "past the FDE");
	CHECK(find_cached(F0 + 0x100, &budget, &f) == -ENOENT &&
	      fake_user_copies, "past the FDE: a row for an error");
	unwind_user_cache_free(unit_cache);
	unit_cache = NULL;
}

UNIT_TEST(test_cache_same_address, "row cache: another object at the same address",
	  0);
