#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: profile the workloads in the guest and show their callchains.
set -euo pipefail
. "$(dirname "$0")/common.sh"
exec "$HARNESS/vm.sh" -t 600 "$HARNESS/demo-guest.sh"
