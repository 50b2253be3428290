/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A FUSE file system of one read-only file, served from memory by a child
 * process over /dev/fuse, without libfuse: for tests that need a file whose
 * reads the test controls.  Stopping the server (SIGSTOP) leaves every
 * request that needs it waiting, as a hung network or disk would; aborting
 * the connection (fusectl) fails them all.
 */
#ifndef UNWIND_USER_FUSE_SERVER_H
#define UNWIND_USER_FUSE_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FUSE_SRV_LOG	16	/* the file offsets of the last READs */

/*
 * What the server did, in memory it shares with the caller; and the READs
 * it is to fail, which the caller sets: the next @fail_left that cover the
 * file offset @fail_off get EIO, as from a disk or a soft NFS mount that
 * timed out.
 */
struct fuse_srv_stats {
	unsigned long requests;			/* all it answered */
	unsigned long reads;			/* READs of the file */
	uint64_t read_off[FUSE_SRV_LOG];	/* read number n at [n % FUSE_SRV_LOG] */
	uint32_t read_size[FUSE_SRV_LOG];
	uint64_t fail_off;
	unsigned long fail_left;
	unsigned long failed;			/* READs answered with EIO */
};

struct fuse_srv {
	pid_t pid;			/* the server, or 0 */
	unsigned int conn;		/* its connection in /sys/fs/fuse/connections */
	bool mounted;
	char dir[256];			/* the mount point */
	char path[512];			/* the file */
	struct fuse_srv_stats *stats;
};

/*
 * Mount a FUSE file system at the directory @dir holding the file @name,
 * @size bytes of @data (which the server copies), and start its server.
 * 0, or -errno with nothing left mounted or running.
 */
int fuse_srv_start(struct fuse_srv *srv, const char *dir, const char *name,
		   const void *data, size_t size);
/* Stop and resume answering (SIGSTOP, SIGCONT): 0, or -errno. */
int fuse_srv_stop(struct fuse_srv *srv);
int fuse_srv_cont(struct fuse_srv *srv);
/* Fail every request, now and from now on: 0, or -errno. */
int fuse_srv_abort(struct fuse_srv *srv);
/* Abort, kill and reap the server, unmount: whatever state it is in. */
void fuse_srv_destroy(struct fuse_srv *srv);

#endif
