/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work items for the registry tests: queued, and run when a test says so
 * (test_run_work() in shim.c) or when someone flushes one, in the thread
 * that does, as if the worker ran it then.
 */
#ifndef _REGISTRY_TEST_LINUX_WORKQUEUE_H
#define _REGISTRY_TEST_LINUX_WORKQUEUE_H

#include <stdbool.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	work_func_t		func;
	bool			pending;	/* queued, not started */
	struct work_struct	*next;
};

#define DECLARE_WORK(n, f)	struct work_struct n = { .func = (f) }
#define INIT_WORK(w, f)		(*(w) = (struct work_struct){ .func = (f) })

struct workqueue_struct;
extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_unbound_wq;

/* false if @work was queued already (and has not started) */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
/* Run @work now if it is queued: true if it was. */
bool flush_work(struct work_struct *work);

#endif
