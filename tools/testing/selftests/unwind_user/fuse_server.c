// SPDX-License-Identifier: GPL-2.0
/* A FUSE file system of one read-only file, without libfuse (see fuse_server.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuse_server.h"

#define FUSECTL_DIR	"/sys/fs/fuse/connections"
#define FILE_NODEID	2
#define FILE_FH		2
/* Attributes and names stay valid for the whole test: no LOOKUP or GETATTR later. */
#define VALID_SECS	3600
/*
 * Read ahead one page at most: a fault reads little more than the page it
 * needs, so that what a test has not touched stays out of the page cache.
 */
#define MAX_READAHEAD	4096
#define MAX_WRITE	4096
/* Large enough for any request but a big WRITE (fuse_dev_do_read()'s minimum: 8 KiB). */
#define REQ_BUF_SIZE	(64 * 1024)

struct served_file {
	const char *name;
	const unsigned char *data;
	size_t size;
};

static int reply(int fd, uint64_t unique, int error, const void *data, size_t len)
{
	struct fuse_out_header out = {
		.len = sizeof(out) + (error ? 0 : len),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ .iov_base = &out, .iov_len = sizeof(out) },
		{ .iov_base = (void *)data, .iov_len = len },
	};

	/* ENOENT: the request was interrupted, nobody waits for it any more. */
	if (writev(fd, iov, error || !len ? 1 : 2) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static void fill_attr(struct fuse_attr *a, uint64_t nodeid, const struct served_file *f)
{
	memset(a, 0, sizeof(*a));
	a->ino = nodeid;
	a->uid = getuid();
	a->gid = getgid();
	a->blksize = 4096;
	if (nodeid == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0555;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0555;
		a->nlink = 1;
		a->size = f->size;
		a->blocks = (f->size + 511) / 512;
	}
}

static int do_init(int fd, const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_init_in *init = arg;
	struct fuse_init_out out = {
		.major = FUSE_KERNEL_VERSION,
		.minor = FUSE_KERNEL_MINOR_VERSION,
		/* What libfuse asks for too: reads need not wait for each other. */
		.flags = init->flags & FUSE_ASYNC_READ,
		.max_background = 12,
		.congestion_threshold = 9,
		.max_write = MAX_WRITE,
		.time_gran = 1,
	};

	if (init->major != FUSE_KERNEL_VERSION)
		return reply(fd, in->unique, -EPROTO, NULL, 0);
	if (init->minor < out.minor)
		out.minor = init->minor;
	out.max_readahead = init->max_readahead < MAX_READAHEAD ?
			    init->max_readahead : MAX_READAHEAD;
	return reply(fd, in->unique, 0, &out, sizeof(out));
}

static int do_lookup(int fd, const struct fuse_in_header *in, const char *name,
		     const struct served_file *f)
{
	struct fuse_entry_out out = {
		.nodeid = FILE_NODEID,
		.generation = 1,
		.entry_valid = VALID_SECS,
		.attr_valid = VALID_SECS,
	};

	if (in->nodeid != FUSE_ROOT_ID || strcmp(name, f->name))
		return reply(fd, in->unique, -ENOENT, NULL, 0);
	fill_attr(&out.attr, FILE_NODEID, f);
	return reply(fd, in->unique, 0, &out, sizeof(out));
}

static int do_getattr(int fd, const struct fuse_in_header *in, const struct served_file *f)
{
	struct fuse_attr_out out = { .attr_valid = VALID_SECS };

	if (in->nodeid != FUSE_ROOT_ID && in->nodeid != FILE_NODEID)
		return reply(fd, in->unique, -ENOENT, NULL, 0);
	fill_attr(&out.attr, in->nodeid, f);
	return reply(fd, in->unique, 0, &out, sizeof(out));
}

/*
 * No FOPEN_KEEP_CACHE: an open invalidates what the page cache holds of
 * the file, and nothing but the faults of a mapping fills it again.
 */
static int do_open(int fd, const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_open_in *open_in = arg;
	struct fuse_open_out out = { .fh = FILE_FH };

	if (in->nodeid == FUSE_ROOT_ID && in->opcode == FUSE_OPENDIR)
		return reply(fd, in->unique, 0, &out, sizeof(out));
	if (in->nodeid != FILE_NODEID || in->opcode != FUSE_OPEN)
		return reply(fd, in->unique, -ENOENT, NULL, 0);
	if ((open_in->flags & O_ACCMODE) != O_RDONLY)
		return reply(fd, in->unique, -EROFS, NULL, 0);
	return reply(fd, in->unique, 0, &out, sizeof(out));
}

static int do_read(int fd, const struct fuse_in_header *in, const void *arg,
		   const struct served_file *f, struct fuse_srv_stats *stats)
{
	const struct fuse_read_in *read_in = arg;
	uint64_t off = read_in->offset;
	size_t len = read_in->size;
	unsigned int slot;

	/* The directory reads empty: the tests name the file they open. */
	if (in->opcode == FUSE_READDIR || in->nodeid != FILE_NODEID)
		return reply(fd, in->unique, 0, NULL, 0);
	slot = stats->reads++ % FUSE_SRV_LOG;
	stats->read_off[slot] = off;
	stats->read_size[slot] = len;
	if (__atomic_load_n(&stats->fail_left, __ATOMIC_ACQUIRE) &&
	    off <= stats->fail_off && stats->fail_off - off < len) {
		stats->fail_left--;
		stats->failed++;
		return reply(fd, in->unique, -EIO, NULL, 0);
	}
	if (off >= f->size)
		return reply(fd, in->unique, 0, NULL, 0);
	if (len > f->size - off)
		len = f->size - off;
	return reply(fd, in->unique, 0, f->data + off, len);
}

static int handle(int fd, const struct fuse_in_header *in, const void *arg,
		  const struct served_file *f, struct fuse_srv_stats *stats)
{
	switch (in->opcode) {
	case FUSE_INIT:
		return do_init(fd, in, arg);
	case FUSE_LOOKUP:
		return do_lookup(fd, in, arg, f);
	case FUSE_GETATTR:
		return do_getattr(fd, in, f);
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		return do_open(fd, in, arg);
	case FUSE_READ:
	case FUSE_READDIR:
		return do_read(fd, in, arg, f, stats);
	case FUSE_FLUSH:
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
	case FUSE_DESTROY:
		return reply(fd, in->unique, 0, NULL, 0);
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		/* No answer: the request it interrupts gets its own. */
		return 0;
	default:
		/*
		 * GETXATTR, LISTXATTR, ...: not supported, which is what the
		 * kernel tells their callers after a "not implemented"
		 * (ENOSYS) anyway.  This server is asked nothing else.
		 */
		return reply(fd, in->unique, -EOPNOTSUPP, NULL, 0);
	}
}

static void __attribute__((noreturn)) serve(int fd, const struct served_file *f,
					    struct fuse_srv_stats *stats)
{
	static uint64_t buf[REQ_BUF_SIZE / sizeof(uint64_t)];
	const struct fuse_in_header *in = (const void *)buf;
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			/* Stopped and resumed, or a request gone before we read it. */
			if (errno == EINTR || errno == EAGAIN || errno == ENOENT)
				continue;
			/* ENODEV: unmounted or aborted. */
			_exit(errno == ENODEV ? 0 : 1);
		}
		if ((size_t)n < sizeof(*in) || in->len != (size_t)n)
			_exit(2);
		/* The argument, NUL-terminated for the names LOOKUP passes. */
		((char *)buf)[n < (ssize_t)sizeof(buf) ? n : n - 1] = '\0';
		if (handle(fd, in, in + 1, f, stats))
			_exit(3);
		stats->requests++;
	}
}

/* Mount fusectl on its directory unless it lists @conn already. */
static void mount_fusectl(unsigned int conn)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/%u", FUSECTL_DIR, conn);
	if (access(path, F_OK))
		mount("fusectl", FUSECTL_DIR, "fusectl", 0, NULL);
}

int fuse_srv_start(struct fuse_srv *srv, const char *dir, const char *name,
		   const void *data, size_t size)
{
	struct served_file f = { .name = name, .data = data, .size = size };
	char opts[128];
	struct stat st;
	int fd, ret;

	memset(srv, 0, sizeof(*srv));
	snprintf(srv->dir, sizeof(srv->dir), "%s", dir);
	snprintf(srv->path, sizeof(srv->path), "%s/%s", dir, name);
	srv->stats = mmap(NULL, sizeof(*srv->stats), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (srv->stats == MAP_FAILED) {
		srv->stats = NULL;
		return -errno;
	}
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto fail;
	}
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=%u,group_id=%u", fd,
		 getuid(), getgid());
	if (mount("unwind_user", dir, "fuse.unwind_user", MS_NOSUID | MS_NODEV | MS_RDONLY,
		  opts)) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	srv->mounted = true;
	srv->pid = fork();
	if (!srv->pid) {
		/* Die with the test: the connection is aborted when its last fd goes. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		serve(fd, &f, srv->stats);
	}
	/* Only the server may hold the device: its death must end the connection. */
	close(fd);
	if (srv->pid < 0) {
		ret = -errno;
		srv->pid = 0;
		goto fail;
	}
	/* The first access waits for FUSE_INIT's answer. */
	if (stat(dir, &st)) {
		ret = -errno;
		goto fail;
	}
	/* The connection's name: the super block's dev_t, as the kernel encodes it. */
	srv->conn = major(st.st_dev) << 20 | minor(st.st_dev);
	mount_fusectl(srv->conn);
	return 0;
fail:
	fuse_srv_destroy(srv);
	return ret;
}

int fuse_srv_stop(struct fuse_srv *srv)
{
	return kill(srv->pid, SIGSTOP) ? -errno : 0;
}

int fuse_srv_cont(struct fuse_srv *srv)
{
	return kill(srv->pid, SIGCONT) ? -errno : 0;
}

int fuse_srv_abort(struct fuse_srv *srv)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%u/abort", FUSECTL_DIR, srv->conn);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

void fuse_srv_destroy(struct fuse_srv *srv)
{
	if (srv->pid > 0) {
		if (srv->conn)
			fuse_srv_abort(srv);
		kill(srv->pid, SIGKILL);
		waitpid(srv->pid, NULL, 0);
		srv->pid = 0;
	}
	if (srv->mounted) {
		umount2(srv->dir, MNT_DETACH);
		srv->mounted = false;
	}
	if (srv->stats) {
		munmap(srv->stats, sizeof(*srv->stats));
		srv->stats = NULL;
	}
}
