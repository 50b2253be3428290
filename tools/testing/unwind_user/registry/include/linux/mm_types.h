/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user space mm for the registry: its mmap lock, its registry and a short
 * list of fake VMAs, the only thing of an address space the registry reads.
 */
#ifndef _REGISTRY_TEST_LINUX_MM_TYPES_H
#define _REGISTRY_TEST_LINUX_MM_TYPES_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/atomic.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/types.h>

typedef unsigned long vm_flags_t;

#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL

struct file;

struct vm_area_struct {
	unsigned long	vm_start;
	unsigned long	vm_end;
	vm_flags_t	vm_flags;
	unsigned long	vm_pgoff;
	struct file	*vm_file;
};

/*
 * The mmap lock: a rwlock that knows its writer, so that
 * mmap_assert_write_locked() can check the caller (shim.c keeps what each
 * thread holds, for mmap_assert_locked()), and numbers the sections in
 * which the mm's VMAs or its registry may change, so that a test can order
 * those changes: each write acquisition, and each acquisition of the
 * registry's own lock (unwind_user_lock) by a thread that holds the mmap
 * lock for reading (see registry.c: every writer of the tree holds both).
 */
struct test_mmap_lock {
	pthread_rwlock_t	rw;
	pthread_t		writer;
	bool			write_held;
	unsigned long		epoch;		/* such sections begun so far */
};

#define TEST_MM_MAX_VMAS	256

struct mm_struct {
	struct test_mmap_lock	mmap_lock;
	struct maple_tree	unwind_user_mt;
	/* The tree's own lock (the older registries have none) */
	struct mutex		unwind_user_lock;
#ifdef REGISTRY_TEST_OLD
	atomic_t		unwind_user_nr;
#else
	unsigned int		unwind_user_nr;
	atomic64_t		unwind_user_gen;
	struct unwind_user_cache *unwind_user_cache;
	/* discover.c's rate limit: discover.c is not built here. */
	atomic_long_t		unwind_user_probes;
	/* throttle.c's: not built here, /proc shows them */
	atomic64_t		unwind_user_walks;
	atomic64_t		unwind_user_walks_known;
	atomic64_t		unwind_user_walks_ip;
	atomic64_t		unwind_user_walk_ns;
#endif
	/* Sorted by address, not overlapping; changed under the write lock. */
	unsigned int		nr_vmas;
	struct vm_area_struct	vmas[TEST_MM_MAX_VMAS];
};

#endif
