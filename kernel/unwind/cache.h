/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cache of decoded frames: the generic rules of struct unwind_user_frame
 * found for a pc, whatever table format produced them.
 */
#ifndef _KERNEL_UNWIND_CACHE_H
#define _KERNEL_UNWIND_CACHE_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/unwind_user_types.h>

/* Rows per cache, a power of two.  See cache.c for the size. */
#define UNWIND_USER_CACHE_BITS	10
#define UNWIND_USER_CACHE_ROWS	BIT(UNWIND_USER_CACHE_BITS)
/* Rows a pc may be in: the size of a set. */
#define UNWIND_USER_CACHE_WAY_BITS	2
#define UNWIND_USER_CACHE_WAYS	BIT(UNWIND_USER_CACHE_WAY_BITS)

struct unwind_user_cache;

struct unwind_user_cache_stats {
	unsigned long	rows;		/* capacity */
	unsigned long	bytes;		/* memory the cache takes */
	unsigned long	hits;
	unsigned long	misses;
};

/*
 * A row may say that no table describes a pc (no FDE covers it), so that
 * it is not searched for again: its frame has no CFA rule, which no frame
 * that a walk can use lacks.
 */
static inline void unwind_user_frame_set_none(struct unwind_user_frame *frame)
{
	*frame = (struct unwind_user_frame){};
}

static inline bool unwind_user_frame_is_none(const struct unwind_user_frame *frame)
{
	return frame->cfa.type == UNWIND_USER_RULE_RETAIN;
}

struct unwind_user_cache *unwind_user_cache_alloc(void);
struct unwind_user_cache *unwind_user_cache_alloc_tagged(unsigned int rows_bits);
void unwind_user_cache_free(struct unwind_user_cache *cache);
void unwind_user_cache_clear(struct unwind_user_cache *cache);
bool unwind_user_cache_lookup(struct unwind_user_cache *cache,
			      unsigned long pc, unsigned int ws, u64 gen,
			      struct unwind_user_frame *frame,
			      unsigned int *cost);
void unwind_user_cache_insert(struct unwind_user_cache *cache,
			      unsigned long pc, unsigned int ws, u64 gen,
			      const struct unwind_user_frame *frame,
			      unsigned int cost);
void unwind_user_cache_get_stats(const struct unwind_user_cache *cache,
				 struct unwind_user_cache_stats *stats);
/* Which set of rows @pc lives in: for tests that make pcs collide. */
unsigned int unwind_user_cache_slot(unsigned long pc);

#endif /* _KERNEL_UNWIND_CACHE_H */
