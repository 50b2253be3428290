// SPDX-License-Identifier: GPL-2.0
/*
 * A cache of decoded frames, one per mm.
 *
 * A profiler samples the same return addresses over and over.  The table
 * lookup of one (binary search, FDE and CIE decode, CFI run: a dozen user
 * reads) gives the same rules every time as long as the mm's registry does
 * not change, so the rules are kept, keyed by the exact pc, as libunwind's
 * fast trace cache does.  A row holds the whole struct unwind_user_frame by
 * value: it does not know which table format produced it (.eh_frame, or a
 * PE image's unwind data) and keeps working when the struct grows.  A
 * lookup that found no FDE for a pc is kept the same way, as a row whose
 * frame says so (unwind_user_frame_set_none()): a profiler samples code
 * that no table describes (hand-written assembly, a runtime's builtins)
 * as often as any other.
 *
 * A row also keeps what its lookup cost the walk's budget
 * (UNWIND_USER_TABLE_BUDGET), and a hit costs the walk the same: the walk
 * ends where it would have ended without the cache, so frames that lead
 * round in a circle cannot run to the entry limit once they are cached,
 * and the chains of a cold and a warm walk are the same.
 *
 * Every row carries the registry generation it was found under (see
 * unwind_user_registry_find_frame()): the registry bumps the generation on
 * every removal, under its lock, and a row of another generation is a
 * miss.  So no change of the registry needs to walk the
 * cache, and a row found before a change can never be used after it.
 *
 * A pc hashes to a set of UNWIND_USER_CACHE_WAYS rows; a new row goes in
 * front and pushes the set's oldest out (direct mapping lost one frame in
 * ten of a 64-deep stack to collisions).  Readers take no lock: each set
 * has a sequence count, and a reader that races with a writer sees a miss.
 * Writers serialize on one spinlock and give up instead of waiting on it:
 * a row not stored costs a later lookup, nothing else.  The lock is raw: a
 * writer holds it for the copy of a row, and on PREEMPT_RT a reader that
 * meets a writer then spins a moment as elsewhere, rather than taking a
 * sleeping lock to wait for one that was preempted.
 *
 * The size is fixed: UNWIND_USER_CACHE_ROWS rows of 56 bytes on 64-bit,
 * some 56 KiB, and two counters per CPU, allocated at the first lookup
 * that finds a frame, charged to the mm's memory cgroup and freed with the
 * mm.  1024 rows hold the hot return addresses of large programs.
 *
 * The same structure serves as the one cache that processes mapping the
 * same file share (shared.c): larger, allocated once, keyed by the offset
 * of the pc from the file's table and a tag that names the file's
 * contents in place of the generation.  Offsets are small numbers that
 * every file has, so there the tag picks the set too.
 */
#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/sched.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "cache.h"

struct unwind_user_cache_row {
	unsigned long			pc;
	u64				gen;
	struct unwind_user_frame	frame;
	u16				cost;
	u8				ws;
};

struct unwind_user_cache_set {
	seqcount_raw_spinlock_t		seq;
	struct unwind_user_cache_row	rows[UNWIND_USER_CACHE_WAYS];
};

#define UNWIND_USER_CACHE_SET_BITS \
	(UNWIND_USER_CACHE_BITS - UNWIND_USER_CACHE_WAY_BITS)
#define UNWIND_USER_CACHE_SETS	BIT(UNWIND_USER_CACHE_SET_BITS)

/* Statistics for /proc/<pid>/unwind_tables. */
struct unwind_user_cache_counts {
	unsigned long			hits;
	unsigned long			misses;
};

struct unwind_user_cache {
	unsigned int			set_bits;
	/* The tag (generation) picks the set too: see above. */
	bool				tagged_sets;
	/*
	 * Per CPU: every lookup of every thread counts, and would otherwise
	 * write the same line as the others.
	 */
	struct unwind_user_cache_counts __percpu *counts;
	/* Writers; readers take none, on lines of their own. */
	raw_spinlock_t			lock ____cacheline_aligned_in_smp;
	struct unwind_user_cache_set	sets[];
};

unsigned int unwind_user_cache_slot(unsigned long pc)
{
	return hash_long(pc, UNWIND_USER_CACHE_SET_BITS);
}

static struct unwind_user_cache_set *
cache_set(struct unwind_user_cache *cache, unsigned long pc, u64 gen)
{
	if (cache->tagged_sets)
		pc ^= (unsigned long)hash_64(gen, BITS_PER_LONG);
	return &cache->sets[hash_long(pc, cache->set_bits)];
}

static struct unwind_user_cache *cache_alloc(unsigned int rows_bits,
					     gfp_t gfp)
{
	unsigned int set_bits = rows_bits - UNWIND_USER_CACHE_WAY_BITS;
	struct unwind_user_cache *cache;
	unsigned int i;

	cache = kvzalloc_flex(*cache, sets, BIT(set_bits), gfp);
	if (!cache)
		return NULL;
	cache->counts = alloc_percpu_gfp(struct unwind_user_cache_counts, gfp);
	if (!cache->counts) {
		kvfree(cache);
		return NULL;
	}
	cache->set_bits = set_bits;
	raw_spin_lock_init(&cache->lock);
	/* Generation 0 never matches: the registry's starts at 1. */
	for (i = 0; i < BIT(set_bits); i++)
		seqcount_raw_spinlock_init(&cache->sets[i].seq,
					   &cache->lock);
	return cache;
}

/**
 * unwind_user_cache_alloc - a new, empty cache
 *
 * Return: the cache, or NULL without memory.  Charged to the current task's
 * memory cgroup: call it from the task whose mm it serves.
 */
struct unwind_user_cache *unwind_user_cache_alloc(void)
{
	return cache_alloc(UNWIND_USER_CACHE_BITS, GFP_KERNEL_ACCOUNT);
}

/**
 * unwind_user_cache_alloc_tagged - a new, empty cache of 2^@rows_bits rows
 * @rows_bits:	its size, at least UNWIND_USER_CACHE_WAY_BITS + 1
 *
 * For a cache that no process owns: not charged to a memory cgroup.  The
 * tag given with each row picks its set as well as the pc.
 *
 * Return: the cache, or NULL without memory.
 */
struct unwind_user_cache *unwind_user_cache_alloc_tagged(unsigned int rows_bits)
{
	struct unwind_user_cache *cache;

	if (rows_bits <= UNWIND_USER_CACHE_WAY_BITS || rows_bits > 24)
		return NULL;
	cache = cache_alloc(rows_bits, GFP_KERNEL);
	if (cache)
		cache->tagged_sets = true;
	return cache;
}

/* Forget every row: for benchmarks that time lookups of an empty cache. */
void unwind_user_cache_clear(struct unwind_user_cache *cache)
{
	struct unwind_user_cache_set *set;
	unsigned int i;

	for (i = 0; i < BIT(cache->set_bits); i++) {
		set = &cache->sets[i];
		raw_spin_lock(&cache->lock);
		write_seqcount_begin(&set->seq);
		memset(set->rows, 0, sizeof(set->rows));
		write_seqcount_end(&set->seq);
		raw_spin_unlock(&cache->lock);
		cond_resched();
	}
}

void unwind_user_cache_free(struct unwind_user_cache *cache)
{
	if (!cache)
		return;
	free_percpu(cache->counts);
	kvfree(cache);
}

/**
 * unwind_user_cache_lookup - the frame cached for @pc
 * @cache:	the mm's cache
 * @pc:		the pc looked up
 * @ws:		the task's word size
 * @gen:	the registry's generation now
 * @frame:	the rules, on a hit
 * @cost:	what the lookup that found them cost the walk, on a hit
 *
 * Never sleeps, takes no lock.
 *
 * Return: true on a hit.
 */
bool unwind_user_cache_lookup(struct unwind_user_cache *cache,
			      unsigned long pc, unsigned int ws, u64 gen,
			      struct unwind_user_frame *frame,
			      unsigned int *cost)
{
	struct unwind_user_cache_set *set;
	struct unwind_user_cache_row *row;
	unsigned int seq, i;
	bool hit = false;

	set = cache_set(cache, pc, gen);
	seq = read_seqcount_begin(&set->seq);
	for (i = 0; i < UNWIND_USER_CACHE_WAYS; i++) {
		row = &set->rows[i];
		if (row->pc == pc && row->gen == gen && row->ws == ws) {
			*frame = row->frame;
			*cost = row->cost;
			hit = true;
			break;
		}
	}
	/* A writer came by: what was read may be half of each row. */
	if (read_seqcount_retry(&set->seq, seq))
		hit = false;

	if (hit)
		this_cpu_inc(cache->counts->hits);
	else
		this_cpu_inc(cache->counts->misses);
	return hit;
}

/**
 * unwind_user_cache_insert - keep the frame found for @pc
 * @cache:	the mm's cache
 * @pc:		the pc looked up
 * @ws:		the task's word size
 * @gen:	the registry's generation read before the lookup began
 * @frame:	what the lookup found
 * @cost:	what it cost the walk's budget (capped at U16_MAX)
 *
 * Replaces whatever @pc's row held.  Does nothing if another writer holds
 * the cache.  Never sleeps.
 */
void unwind_user_cache_insert(struct unwind_user_cache *cache,
			      unsigned long pc, unsigned int ws, u64 gen,
			      const struct unwind_user_frame *frame,
			      unsigned int cost)
{
	struct unwind_user_cache_set *set;
	struct unwind_user_cache_row *row;
	unsigned int i;

	set = cache_set(cache, pc, gen);
	if (!raw_spin_trylock(&cache->lock))
		return;
	/* @pc's row of an older generation goes, or else the oldest row. */
	for (i = 0; i < UNWIND_USER_CACHE_WAYS - 1; i++) {
		if (set->rows[i].pc == pc && set->rows[i].ws == ws)
			break;
	}
	write_seqcount_begin(&set->seq);
	memmove(&set->rows[1], &set->rows[0], i * sizeof(set->rows[0]));
	row = &set->rows[0];
	row->pc = pc;
	row->gen = gen;
	row->ws = ws;
	row->cost = min_t(unsigned int, cost, U16_MAX);
	row->frame = *frame;
	write_seqcount_end(&set->seq);
	raw_spin_unlock(&cache->lock);
}

void unwind_user_cache_get_stats(const struct unwind_user_cache *cache,
				 struct unwind_user_cache_stats *stats)
{
	const struct unwind_user_cache_counts *c;
	int cpu;

	stats->rows = BIT(cache->set_bits) * UNWIND_USER_CACHE_WAYS;
	stats->bytes = sizeof(*cache) +
		       BIT(cache->set_bits) * sizeof(cache->sets[0]) +
		       num_possible_cpus() * sizeof(*cache->counts);
	stats->hits = 0;
	stats->misses = 0;
	/* Each CPU's counts, read while lookups go on: a snapshot. */
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(cache->counts, cpu);
		stats->hits += READ_ONCE(c->hits);
		stats->misses += READ_ONCE(c->misses);
	}
}
