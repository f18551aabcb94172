# bloomcass - Cassandra-identical bloom filters for PostgreSQL
#
#   make / make install          build and install the extension (PGXS)
#   make installcheck            pg_regress against a running server, as a superuser
#                                role of your user name (doc/testing.md)
#   make dist                    the PGXN archive, build/dist/bloomcass-<version>.zip
#   make unittest                core unit tests (-Wall -Wextra -Werror)
#   make unittest-sanitize       the same under AddressSanitizer + UBSan
#   make core-c99                compile the core alone, -std=c99, no PostgreSQL,
#                                each folder with only the folders below it
#   make bloomcass-load          the client (libpq); `make` and `make install` include it
#   make check-sources           every source file and test is named in the lists below
#   make check-version           META.json, README.md, CHANGELOG.md's newest
#                                entry and debian/changelog's agree with
#                                bloomcass.control
#                                (test/version.sh: it fails when one does not)
#   make check-recursion         every recursive function is a known, bounded one
#                                (test/check-recursion.sh; gcc's call graphs)
#   make check-cycles            no two C files need each other, directly or
#                                around a loop, and no folder of the core uses
#                                one above it (test/check-cycles.sh; nm)
#   make check-layers            the core's folders as src/core/README.md says
#                                (test/check-layers.sh)
#   make lookup-bench            bytes read by an exact key lookup vs a full Index.db
#                                scan, on generated SSTables (test/bench/README.md)
#   bash test/bench/node.sh      node-scale benchmark: 1,000 and 10,000 SSTables
#                                (test/bench/README.md)

EXTENSION = bloomcass
MODULE_big = bloomcass

# The version, in one place: bloomcass.control's default_version (1.2).
# META.json gives it in three parts (DIST_VERSION, 1.2.0), as PGXN wants,
# and so does bloomcass-load --version; `make check-version` checks
# META.json, README.md and CHANGELOG.md.
EXTVERSION := $(shell sed -nE "s/^default_version *= *'([^']+)'.*/\1/p" bloomcass.control)
DIST_VERSION := $(if $(word 3,$(subst ., ,$(EXTVERSION))),$(EXTVERSION),$(EXTVERSION).0)

# The core's folders, lowest first: each may use only the folders before
# it (src/core/README.md; `make check-cycles` checks it from the objects,
# test/check-layers.sh from the #include lines).
CORE_DIRS = base filter hll keys cql data index stats sstable node
CORE_INCLUDES = $(addprefix -Isrc/core/,$(CORE_DIRS))
CORE_HEADERS = $(wildcard $(addsuffix /*.h,$(addprefix src/core/,$(CORE_DIRS))))

# Every file is named, one a line, sorted: a stray .c is not linked and a
# stray sql/*.sql is not a test.  `make check-sources` fails when a file in
# these folders is not named here or a named one is missing.
CORE_SRCS = \
	src/core/base/bc_status.c \
	src/core/base/bc_tick.c \
	src/core/cql/bc_cqltype.c \
	src/core/cql/bc_cqlvalue_common.c \
	src/core/cql/bc_cqlvalue_json.c \
	src/core/cql/bc_cqlvalue_number.c \
	src/core/cql/bc_cqlvalue_parse.c \
	src/core/cql/bc_cqlvalue_scalar.c \
	src/core/cql/bc_cqlvalue_scan.c \
	src/core/cql/bc_cqlvalue_scan_time.c \
	src/core/cql/bc_cqlvalue_sink.c \
	src/core/cql/bc_cqlvalue_text.c \
	src/core/data/bc_compression.c \
	src/core/data/bc_compression_chunk.c \
	src/core/data/bc_compression_dict.c \
	src/core/data/bc_data.c \
	src/core/filter/bc_codec.c \
	src/core/filter/bc_filter.c \
	src/core/filter/bc_filter_sizing.c \
	src/core/filter/bc_health.c \
	src/core/filter/bc_murmur3.c \
	src/core/filter/bc_sizing.c \
	src/core/hll/bc_hll.c \
	src/core/hll/bc_hll_bias.c \
	src/core/hll/bc_hll_merge.c \
	src/core/hll/bc_hll_scylla.c \
	src/core/index/bc_index.c \
	src/core/index/bc_index_samples.c \
	src/core/index/bc_key_range.c \
	src/core/index/bc_lookup.c \
	src/core/index/bc_partition_sizes.c \
	src/core/index/bc_partitions.c \
	src/core/index/bc_summary.c \
	src/core/index/bc_trie.c \
	src/core/index/bc_trie_keys.c \
	src/core/keys/bc_keys.c \
	src/core/keys/bc_keys_number.c \
	src/core/keys/bc_partitioner.c \
	src/core/node/bc_mounts.c \
	src/core/node/bc_open_posix.c \
	src/core/node/bc_pending_delete.c \
	src/core/node/bc_txn_log.c \
	src/core/node/bc_txn_record.c \
	src/core/node/bc_walk.c \
	src/core/node/bc_walk_place.c \
	src/core/node/bc_walk_posix.c \
	src/core/node/bc_walk_seen.c \
	src/core/node/bc_walk_sstable.c \
	src/core/node/bc_walk_txn.c \
	src/core/sstable/bc_sstable_dir.c \
	src/core/sstable/bc_sstable_name.c \
	src/core/stats/bc_histogram.c \
	src/core/stats/bc_statistics.c \
	src/core/stats/bc_statistics_fields.c \
	src/core/stats/bc_statistics_stats.c

GLUE_SRCS = \
	src/bloom_agg_exact.c \
	src/bloom_agg_exact_sql.c \
	src/bloom_agg_handover.c \
	src/bloom_agg_sized.c \
	src/bloom_agg_state.c \
	src/bloom_agg_testing.c \
	src/bloom_contains_each.c \
	src/bloom_cqlkey.c \
	src/bloom_each.c \
	src/bloom_file_errors.c \
	src/bloom_files.c \
	src/bloom_filter_sizing.c \
	src/bloom_health.c \
	src/bloom_hll.c \
	src/bloom_io.c \
	src/bloom_keys.c \
	src/bloom_keys_sql.c \
	src/bloom_may_contain.c \
	src/bloom_may_contain_plan.c \
	src/bloom_metadata.c \
	src/bloom_ops.c \
	src/bloom_probe.c \
	src/bloom_sstable_dir.c \
	src/bloom_sstable_keys.c \
	src/bloom_sstable_lookup.c \
	src/bloom_sstable_open.c \
	src/bloom_sstable_parse.c \
	src/bloom_sstable_read.c \
	src/bloom_typed_key.c \
	src/bloom_util.c \
	src/bloomcass.c

OBJS = $(CORE_SRCS:.c=.o) $(GLUE_SRCS:.c=.o)

# the install script of 1.0 and the upgrades from it
DATA = \
	src/sql/bloomcass--1.0--1.1.sql \
	src/sql/bloomcass--1.0.sql \
	src/sql/bloomcass--1.1--1.2.sql \
	src/sql/bloomcass--1.2--1.3.sql \
	src/sql/bloomcass--1.3--1.4.sql \
	src/sql/bloomcass--1.4--1.5.sql \
	src/sql/bloomcass--1.5--1.6.sql

# sql/<test>.sql against expected/<test>.out, in this order
REGRESS = \
	01_setup \
	02_type \
	03_functions \
	04_aggregates \
	05_vectors \
	06_real_filters \
	07_limits \
	08_malformed \
	09_security \
	10_upgrade \
	11_sstables \
	12_sstable_components \
	13_health \
	14_node_recipes \
	15_probe \
	16_lookup \
	17_codecs \
	18_agg_states \
	19_cql_keys \
	20_recursion \
	21_files \
	22_components \
	23_txn_logs \
	24_datastax \
	25_cassandra60 \
	26_folder_extras \
	27_partitions \
	28_identity \
	29_file_errors \
	30_contains_each \
	31_typed_probes \
	32_metadata \
	33_data_dir_links \
	34_may_contain \
	35_cardinality \
	36_metadata_fleet \
	99_cleanup
REGRESS_OPTS = --inputdir=. --outputdir=build/regress

# The regression tests read the reference data (test/data) on the server and
# write a few files beside it, in $BLOOMCASS_SERVER_DATA.  test/run-all.sh
# points it at a copy inside its throwaway cluster; without it, `make
# installcheck` makes a copy any local server can read and write in, under
# /tmp (a server running as another user cannot reach a tree under /root),
# named by the user and the tree, removed by `make clean`.
ifndef BLOOMCASS_SERVER_DATA
BLOOMCASS_SERVER_DATA := /tmp/bloomcass-server-data-$(shell id -u)-$(shell printf '%s' '$(CURDIR)' | cksum | cut -d' ' -f1)
BLOOMCASS_MAKE_DATA = yes
endif
export BLOOMCASS_SERVER_DATA

PG_CPPFLAGS = $(CORE_INCLUDES)
PG_CFLAGS = -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers
# each object's header dependencies, written beside it (src/x.o: src/x.d)
PG_CFLAGS += -MMD -MP

# The decompressors of a compressed Data.db (src/core/data/bc_compression_chunk.c):
# Debian's liblz4-dev, libsnappy-dev, zlib1g-dev and libzstd-dev.
COMPRESSION_LIBS = -llz4 -lsnappy -lz -lzstd
SHLIB_LINK += $(COMPRESSION_LIBS)

EXTRA_CLEAN = build/regress build/unit_tests build/unit_tests_san build/core-c99 build/callgraph \
	build/client build/tools bloomcass-load $(OBJS:.o=.d) \
	build/bench/lookup build/bench/lookup_gen build/bench/lookup_bench \
	build/bench/node_filter build/bench/node_copy build/bench/node
ifdef BLOOMCASS_MAKE_DATA
EXTRA_CLEAN += $(BLOOMCASS_SERVER_DATA)
endif

# The core's symbols stay inside the library: only the SQL-callable
# functions are exported, so nothing of ours can be mistaken for a
# same-named symbol of the server (or the reverse).
$(CORE_SRCS:.c=.o) $(CORE_SRCS:.c=.bc): CFLAGS += -fvisibility=hidden

PG_CONFIG ?= pg_config
SHELL = /bin/bash
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The headers each object includes, as the compiler found them (-MMD -MP);
# included after PGXS's rules so that `make` alone still builds `all`.
-include $(OBJS:.o=.d)

ifdef BLOOMCASS_MAKE_DATA
installcheck: installcheck-data
endif

# ---------------------------------------------------------------------------
# bloomcass-load: the client that uploads a node's SSTables (libpq).  It
# compiles the core itself, with its own flags, into build/client/.
# ---------------------------------------------------------------------------
CLIENT_SRCS = \
	src/client/components.c \
	src/client/connect.c \
	src/client/copy.c \
	src/client/main.c \
	src/client/messages.c \
	src/client/options.c \
	src/client/params.c \
	src/client/pipeline.c \
	src/client/progress.c \
	src/client/prune.c \
	src/client/row.c \
	src/client/tables.c \
	src/client/upload.c \
	src/client/walk.c

CLIENT_CC ?= $(CC)
CLIENT_CFLAGS = -std=c99 -O2 -g -Wall -Wextra -Werror $(CORE_INCLUDES) -Isrc/client \
	-I$(shell $(PG_CONFIG) --includedir) -DLOAD_VERSION='"$(DIST_VERSION)"' -MMD -MP
CLIENT_LIBS = -L$(shell $(PG_CONFIG) --libdir) -lpq $(COMPRESSION_LIBS) -lm
CLIENT_OBJS = $(patsubst src/client/%.c,build/client/%.o,$(CLIENT_SRCS)) \
	$(patsubst src/core/%.c,build/client/core_%.o,$(CORE_SRCS))

build/client/%.o: src/client/%.c
	@mkdir -p build/client
	$(CLIENT_CC) $(CLIENT_CFLAGS) -c $< -o $@

build/client/core_%.o: src/core/%.c
	@mkdir -p $(@D)
	$(CLIENT_CC) $(CLIENT_CFLAGS) -c $< -o $@

-include $(CLIENT_OBJS:.o=.d)

# --version prints the version of bloomcass.control
build/client/options.o: bloomcass.control

bloomcass-load: $(CLIENT_OBJS)
	$(CLIENT_CC) -o $@ $(CLIENT_OBJS) $(CLIENT_LIBS)

all: bloomcass-load

.PHONY: install-client uninstall-client
install: install-client
uninstall: uninstall-client

# The program goes beside PostgreSQL's own client programs (pg_config
# --bindir), which on Debian is not on PATH (/usr/lib/postgresql/N/bin): a
# symbolic link in CLIENT_LINK_DIR (default /usr/local/bin, under DESTDIR
# when set) points to it, so that `bloomcass-load` runs as typed.
# CLIENT_LINK_DIR= (empty) installs no link, as does a CLIENT_LINK_DIR that
# is the bindir itself.  uninstall removes the link only when it still points
# to this bindir's program (another PostgreSQL's install may have replaced it).
CLIENT_LINK_DIR ?= /usr/local/bin
# The manual, bloomcass-load(1), goes to CLIENT_MAN_DIR/man1 (default
# /usr/local/share/man, where man finds it for /usr/local/bin; under DESTDIR
# when set); CLIENT_MAN_DIR= (empty) installs none (the Debian package
# installs it with dh_installman).
CLIENT_MAN_DIR ?= /usr/local/share/man

# make install never writes over a file a Debian package installed (a
# package's bloomcass.so replaced behind dpkg's back, which `dpkg -V` then
# reports), nor puts a link in CLIENT_LINK_DIR that would shadow the
# bloomcass-load package's /usr/bin/bloomcass-load: it stops, naming the
# package (dpkg -S).  Not under DESTDIR (a package's own build), nor where
# dpkg is not.  BLOOMCASS_OVER_PACKAGE=1 installs anyway.
.PHONY: check-not-packaged
check-not-packaged:
	@if [ -z '$(DESTDIR)' ] && [ -z '$(BLOOMCASS_OVER_PACKAGE)' ] && command -v dpkg-query >/dev/null 2>&1; then \
		rc=0; \
		for f in '$(pkglibdir)/bloomcass$(DLSUFFIX)' '$(datadir)/extension/bloomcass.control' '$(bindir)/bloomcass-load'; do \
			if owner=$$(dpkg-query -S "$$f" 2>/dev/null); then \
				echo "make install: $$f belongs to the Debian package $${owner%%:*} (dpkg -S $$f):" \
					"remove the package (apt-get remove $${owner%%:*}) or keep it and skip make install;" \
					"BLOOMCASS_OVER_PACKAGE=1 writes over it anyway" >&2; rc=1; \
			fi; \
		done; \
		if [ -n '$(strip $(CLIENT_LINK_DIR))' ] && owner=$$(dpkg-query -S /usr/bin/bloomcass-load 2>/dev/null); then \
			echo "make install: a link $(CLIENT_LINK_DIR)/bloomcass-load would shadow /usr/bin/bloomcass-load of the Debian package" \
				"$${owner%%:*}: remove the package, or install with CLIENT_LINK_DIR= (no link); BLOOMCASS_OVER_PACKAGE=1 installs anyway" >&2; rc=1; \
		fi; \
		exit $$rc; \
	fi

install: check-not-packaged
installdirs installdirs-lib: check-not-packaged
install-client: check-not-packaged

install-client: bloomcass-load
	$(MKDIR_P) '$(DESTDIR)$(bindir)'
	$(INSTALL_PROGRAM) bloomcass-load '$(DESTDIR)$(bindir)/bloomcass-load'
ifneq ($(strip $(CLIENT_LINK_DIR)),)
ifneq ($(abspath $(CLIENT_LINK_DIR)),$(abspath $(bindir)))
	$(MKDIR_P) '$(DESTDIR)$(CLIENT_LINK_DIR)'
	ln -sfn '$(bindir)/bloomcass-load' '$(DESTDIR)$(CLIENT_LINK_DIR)/bloomcass-load'
endif
endif
ifneq ($(strip $(CLIENT_MAN_DIR)),)
	$(MKDIR_P) '$(DESTDIR)$(CLIENT_MAN_DIR)/man1'
	$(INSTALL_DATA) doc/bloomcass-load.1 '$(DESTDIR)$(CLIENT_MAN_DIR)/man1/bloomcass-load.1'
endif

uninstall-client:
	rm -f '$(DESTDIR)$(bindir)/bloomcass-load'
ifneq ($(strip $(CLIENT_MAN_DIR)),)
	rm -f '$(DESTDIR)$(CLIENT_MAN_DIR)/man1/bloomcass-load.1'
endif
ifneq ($(strip $(CLIENT_LINK_DIR)),)
ifneq ($(abspath $(CLIENT_LINK_DIR)),$(abspath $(bindir)))
	@link='$(DESTDIR)$(CLIENT_LINK_DIR)/bloomcass-load'; \
	if [ -L "$$link" ] && [ "$$(readlink "$$link")" = '$(bindir)/bloomcass-load' ]; then \
		echo "rm -f $$link"; rm -f "$$link"; \
	fi
endif
endif

# ---------------------------------------------------------------------------
# Core unit tests: plain C, no PostgreSQL headers
# ---------------------------------------------------------------------------
UNIT_SRCS = $(sort $(wildcard test/unit/*.c test/unit/*/*.c)) test/lib/bytebuf.c
UNIT_CC ?= cc
UNIT_WARN = -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -pedantic
UNIT_DATA ?= test/data
# one compiler run for all sources: it depends on every header they may include
UNIT_DEPS = $(CORE_SRCS) $(UNIT_SRCS) $(CORE_HEADERS) $(wildcard test/unit/*.h test/unit/*/*.h) test/lib/bytebuf.h

build/unit_tests: $(UNIT_DEPS)
	@mkdir -p build
	$(UNIT_CC) $(UNIT_WARN) -O2 -g $(CORE_INCLUDES) -Itest/unit -Itest/lib -o $@ $(CORE_SRCS) $(UNIT_SRCS) $(COMPRESSION_LIBS) -lm

build/unit_tests_san: $(UNIT_DEPS)
	@mkdir -p build
	$(UNIT_CC) $(UNIT_WARN) -O1 -g -fno-omit-frame-pointer \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		$(CORE_INCLUDES) -Itest/unit -Itest/lib -o $@ $(CORE_SRCS) $(UNIT_SRCS) $(COMPRESSION_LIBS) -lm

# ---------------------------------------------------------------------------
# Test data tools (test/tools/README.md): copies of the real SSTables with
# Data.db in every compressor, and with ScyllaDB's quirks, which
# test/make-codecs.sh makes for the regression tests and test/client.sh
# ---------------------------------------------------------------------------
TOOL_SRCS = \
	test/tools/chunk_codec.c \
	test/tools/dict_trailer.c \
	test/tools/make_stats.c \
	test/tools/recompress.c \
	test/tools/scylla_quirks.c \
	test/tools/tool_io.c
TOOL_DEPS = $(CORE_SRCS) $(CORE_HEADERS) test/tools/tool_io.c test/tools/tool_io.h \
	test/lib/bytebuf.c test/lib/bytebuf.h

build/tools/recompress: test/tools/recompress.c test/tools/chunk_codec.c test/tools/chunk_codec.h \
		test/tools/dict_trailer.c test/tools/dict_trailer.h $(TOOL_DEPS)
	@mkdir -p build/tools
	$(UNIT_CC) $(UNIT_WARN) -O2 -g $(CORE_INCLUDES) -Itest/tools -Itest/lib -o $@ $< test/tools/chunk_codec.c test/tools/dict_trailer.c \
		test/tools/tool_io.c test/lib/bytebuf.c $(CORE_SRCS) $(COMPRESSION_LIBS) -lm

build/tools/scylla-quirks: test/tools/scylla_quirks.c $(TOOL_DEPS)
	@mkdir -p build/tools
	$(UNIT_CC) $(UNIT_WARN) -O2 -g $(CORE_INCLUDES) -Itest/tools -Itest/lib -o $@ $< test/tools/tool_io.c test/lib/bytebuf.c \
		$(CORE_SRCS) $(COMPRESSION_LIBS) -lm

build/tools/make-stats: test/tools/make_stats.c $(TOOL_DEPS)
	@mkdir -p build/tools
	$(UNIT_CC) $(UNIT_WARN) -O2 -g $(CORE_INCLUDES) -Itest/tools -Itest/lib -o $@ $< test/tools/tool_io.c test/lib/bytebuf.c \
		$(CORE_SRCS) $(COMPRESSION_LIBS) -lm

.PHONY: tools
tools: build/tools/recompress build/tools/scylla-quirks build/tools/make-stats

.PHONY: unittest unittest-sanitize core-c99 check-symbols check-sources check-version \
	check-recursion check-cycles check-layers

# No symbol exported by the library may also be exported by the server:
# the JIT inliner and the dynamic linker would take one for the other.
check-symbols: all
	@postgres=$$($(PG_CONFIG) --bindir)/postgres; \
	clash=$$(comm -12 <(nm -D --defined-only $(MODULE_big)$(DLSUFFIX) | awk '{print $$3}' | sort -u) \
	                  <(nm -D --defined-only "$$postgres" | awk '{print $$3}' | sort -u)); \
	if [ -n "$$clash" ]; then echo "symbols also exported by the server: $$clash"; exit 1; fi; \
	echo "no exported symbol clashes with the server ($$(nm -D --defined-only $(MODULE_big)$(DLSUFFIX) | grep -c ' T ') exported)"

# The cycles of the call graph (functions that call themselves, directly or
# not) are exactly the known ones, each bounded (src/core/cql/bc_cqltype.h).
check-recursion:
	@PG_CONFIG="$(PG_CONFIG)" bash test/check-recursion.sh

# The core's folders against CORE_DIRS and their README.md files.
check-layers:
	@CORE_DIRS="$(CORE_DIRS)" bash test/check-layers.sh

# No cycle among the C files of a program: the extension (the core and the
# glue) and bloomcass-load (the client and its own copy of the core), each
# from its objects.
check-cycles: all
	@CORE_DIRS="$(CORE_DIRS)" bash test/check-cycles.sh $(addprefix extension=,$(OBJS)) \
		$(addprefix bloomcass-load=,$(CLIENT_OBJS))

unittest: build/unit_tests
	./build/unit_tests $(UNIT_DATA)

unittest-sanitize: build/unit_tests_san
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		./build/unit_tests_san $(UNIT_DATA)

# Each file of the core compiled alone, -std=c99, with no PostgreSQL and
# only its own folder and the folders below it on the include path
# (CORE_DIRS): a header of a higher folder is not found.
core-c99:
	@mkdir -p build/core-c99
	@inc=; for d in $(CORE_DIRS); do \
		inc="$$inc -Isrc/core/$$d"; \
		for f in src/core/$$d/*.c; do \
			echo "$(UNIT_CC) -std=c99 -pedantic -Wall -Wextra -Werror$$inc -c $$f"; \
			$(UNIT_CC) -std=c99 -pedantic -Wall -Wextra -Werror $$inc -c $$f \
				-o build/core-c99/$$(basename $$f .c).o || { \
				echo "core-c99: $$f does not compile alone with -std=c99 and the folders up to $$d ($(CORE_DIRS))"; exit 1; }; \
		done; \
	done
	@echo "core compiles alone with -std=c99, each folder with only the folders below it"

# ---------------------------------------------------------------------------
# lookup-bench: what an exact key lookup (bc_big_lookup, the core of
# cassandra_sstable_has_key) reads against a full scan of Index.db, on BIG
# SSTables of LOOKUP_BENCH_SIZES keys that lookup_gen writes under
# build/bench/lookup/<N>/ (kept while the generator is unchanged).  Plain C,
# no PostgreSQL; it fails when an answer is wrong or a lookup reads more
# than its bound.  test/bench/README.md; 4M keys by hand:
#   make lookup-bench LOOKUP_BENCH_SIZES="10000 100000 1000000 4000000"
# ---------------------------------------------------------------------------
LOOKUP_BENCH_SIZES ?= 10000 100000 1000000
LOOKUP_BENCH_DIR = build/bench/lookup
LOOKUP_BENCH_FLAGS = $(UNIT_WARN) -O2 -g $(CORE_INCLUDES) -Itest/bench

build/bench/lookup_gen: test/bench/lookup_gen.c test/bench/lookup_keys.h src/core/filter/bc_murmur3.c \
		$(CORE_HEADERS)
	@mkdir -p build/bench
	$(UNIT_CC) $(LOOKUP_BENCH_FLAGS) -o $@ test/bench/lookup_gen.c src/core/filter/bc_murmur3.c

LOOKUP_BENCH_SRCS = test/bench/lookup_bench.c test/bench/lookup_files.c

build/bench/lookup_bench: $(LOOKUP_BENCH_SRCS) test/bench/lookup_bench.h test/bench/lookup_keys.h \
		$(CORE_SRCS) $(CORE_HEADERS)
	@mkdir -p build/bench
	$(UNIT_CC) $(LOOKUP_BENCH_FLAGS) -o $@ $(LOOKUP_BENCH_SRCS) $(CORE_SRCS) $(COMPRESSION_LIBS) -lm

# lookup_gen renames Summary.db into place last: it stands for both files
$(LOOKUP_BENCH_DIR)/%/nb-1-big-Summary.db: build/bench/lookup_gen
	@mkdir -p $(@D)
	./build/bench/lookup_gen $* $(@D)

.PHONY: lookup-bench
lookup-bench: build/bench/lookup_bench \
		$(foreach n,$(LOOKUP_BENCH_SIZES),$(LOOKUP_BENCH_DIR)/$(n)/nb-1-big-Summary.db)
	./build/bench/lookup_bench $(foreach n,$(LOOKUP_BENCH_SIZES),$(n) $(LOOKUP_BENCH_DIR)/$(n))

# ---------------------------------------------------------------------------
# The node-scale benchmark (test/bench/node.sh, not part of CI): node_filter
# writes the large Filter.db files of its nodes (plain C against the core),
# node_copy is the floor of bloomcass-load (libpq).  test/bench/README.md.
# ---------------------------------------------------------------------------
build/bench/node_filter: test/bench/node_filter.c $(CORE_SRCS) $(CORE_HEADERS)
	@mkdir -p build/bench
	$(UNIT_CC) $(UNIT_WARN) -O2 -g $(CORE_INCLUDES) -o $@ test/bench/node_filter.c $(CORE_SRCS) $(COMPRESSION_LIBS) -lm

build/bench/node_copy: test/bench/node_copy.c
	@mkdir -p build/bench
	$(CLIENT_CC) -std=c99 -O2 -g -Wall -Wextra -Werror -I$(shell $(PG_CONFIG) --includedir) -o $@ $< \
		-L$(shell $(PG_CONFIG) --libdir) -lpq

# ---------------------------------------------------------------------------
# The lists above against the tree: every src/*.c, src/core/*/*.c,
# src/client/*.c, test/tools/*.c, src/sql/*.sql and sql/*.sql is named,
# every named file exists, each test has its expected output and each
# expected output its test, the lists of C files are sorted, and no C file
# of the extension or the client is past MAX_LINES lines.
# ---------------------------------------------------------------------------
# What the repository's root holds: nothing else, tracked or not ignored
# (a fuzzer's crash-* artifact, a stray log), is to be there.  The build's
# own outputs at the root are ignored by .gitignore.
ROOT_ENTRIES = .ci .git .gitignore CHANGELOG.md CONTRIBUTING.md LICENSE META.json Makefile \
	README.md bloomcass.control debian doc expected sql src test

LISTED_FILES = $(CORE_SRCS) $(GLUE_SRCS) $(CLIENT_SRCS) $(TOOL_SRCS) $(DATA) $(patsubst %,sql/%.sql,$(REGRESS))
TREE_FILES = $(wildcard src/*.c src/core/*.c src/core/*/*.c src/client/*.c test/tools/*.c src/sql/*.sql sql/*.sql)

# No C file of the extension or the client is longer than this: past it, a
# file usually holds two concerns.
MAX_LINES = 600

check-sources:
	@rc=0; \
	for f in $(sort $(filter-out $(LISTED_FILES),$(TREE_FILES))); do \
		echo "$$f: not named in the Makefile (add it to its list, or remove the file)"; rc=1; \
	done; \
	for f in $(LISTED_FILES); do \
		[ -f "$$f" ] || { echo "$$f: named in the Makefile, but there is no such file"; rc=1; }; \
	done; \
	for t in $(REGRESS); do \
		[ -f "expected/$$t.out" ] || { echo "expected/$$t.out: missing (test $$t)"; rc=1; }; \
	done; \
	for f in $(wildcard expected/*.out); do \
		t=$$(basename "$$f" .out); t=$${t%_[0-9]}; \
		case " $(strip $(REGRESS)) " in *" $$t "*) ;; \
		*) echo "$$f: no test $$t in REGRESS"; rc=1 ;; esac; \
	done; \
	for list in CORE_SRCS:"$(CORE_SRCS)" GLUE_SRCS:"$(GLUE_SRCS)" CLIENT_SRCS:"$(CLIENT_SRCS)" TOOL_SRCS:"$(TOOL_SRCS)"; do \
		printf '%s\n' $${list#*:} | LC_ALL=C sort -C || { echo "$${list%%:*}: not sorted"; rc=1; }; \
	done; \
	if [ -d .git ] || [ -f .git ]; then \
		entries=$$(git ls-files --cached --others --exclude-standard | cut -d/ -f1 | LC_ALL=C sort -u); \
	else \
		entries=$$(ls -A | grep -vxE 'bloomcass\.so|bloomcass-load|build|results|log|regression\.(diffs|out)|.*\.(o|d|bc)'); \
	fi; \
	for e in $$entries; do \
		case " $(ROOT_ENTRIES) " in *" $$e "*) ;; \
		*) echo "$$e: at the repository's root, which holds only ROOT_ENTRIES of the Makefile (move it, remove it, or list it there)"; rc=1 ;; esac; \
	done; \
	for f in $(CORE_SRCS) $(GLUE_SRCS) $(CLIENT_SRCS); do \
		n=$$(wc -l <"$$f"); \
		[ "$$n" -le $(MAX_LINES) ] || { echo "$$f: $$n lines, more than $(MAX_LINES): split it by concern (doc/layout.md)"; rc=1; }; \
	done; \
	if [ $$rc -ne 0 ]; then echo "check-sources: the Makefile's lists and the tree differ"; exit 1; fi; \
	echo "check-sources: the $(words $(LISTED_FILES)) files named in the Makefile are the tree's"

# META.json (the distribution's and the extension's version), README.md
# ("The current version is ..."), CHANGELOG.md (its newest entry, the first
# "## VERSION" heading) and debian/changelog (its newest entry's upstream
# version, VERSION.0-N) against bloomcass.control.
define CHECK_VERSION_PL
my ($$want, $$ext) = @ARGV;
open(my $$fh, "<", "META.json") or die "META.json: $$!\n";
my $$m = decode_json(do { local $$/; <$$fh> });
my $$p = $$m->{provides}{bloomcass} // {};
my @bad;
push @bad, "version is \"" . ($$m->{version} // "") . "\"" if ($$m->{version} // "") ne $$want;
push @bad, "provides bloomcass version \"" . ($$p->{version} // "") . "\"" if ($$p->{version} // "") ne $$want;
push @bad, "provides file " . ($$p->{file} // "(none)") . ", which does not exist" unless -f ($$p->{file} // "");
print "META.json: $$_ (bloomcass.control says $$ext, so $$want)\n" for @bad;
exit(@bad ? 1 : 0);
endef
export CHECK_VERSION_PL

check-version:
	@test -n "$(EXTVERSION)" || { echo "bloomcass.control: no default_version"; exit 1; }
	@perl -MJSON::PP -e "$$CHECK_VERSION_PL" '$(DIST_VERSION)' '$(EXTVERSION)'
	@grep -qF 'The current version is $(EXTVERSION).' README.md || \
		{ echo "README.md: no \"The current version is $(EXTVERSION).\" (bloomcass.control says $(EXTVERSION))"; exit 1; }
	@test -f CHANGELOG.md || { echo "CHANGELOG.md: missing (bloomcass.control says $(EXTVERSION))"; exit 1; }
	@newest=$$(sed -nE 's/^## +([^ ]+).*/\1/p' CHANGELOG.md | head -n 1); \
	if [ "$$newest" != '$(EXTVERSION)' ]; then \
		echo "CHANGELOG.md: the newest entry (the first \"## \" heading) is \"$${newest:-(none)}\", not $(EXTVERSION) (bloomcass.control says $(EXTVERSION))"; \
		exit 1; \
	fi
	@deb=$$(sed -nE '1s/^bloomcass \(([^)]*)\).*/\1/p' debian/changelog); \
	if [ "$${deb%-*}" != '$(DIST_VERSION)' ]; then \
		echo "debian/changelog: the newest entry is \"$${deb:-(none)}\", not $(DIST_VERSION)-N (bloomcass.control says $(EXTVERSION))"; \
		exit 1; \
	fi
	@echo "check-version: $(EXTVERSION) (META.json $(DIST_VERSION)) in bloomcass.control, META.json, README.md, CHANGELOG.md's newest entry and debian/changelog's"

# ---------------------------------------------------------------------------
# PGXN distribution: build/dist/bloomcass-<version>.zip, the committed tree
# (HEAD) under a bloomcass-<version>/ prefix, as `pgxn install` takes it.
# ---------------------------------------------------------------------------
DIST_ZIP = build/dist/$(EXTENSION)-$(DIST_VERSION).zip

.PHONY: dist
dist: check-version
	@mkdir -p build/dist
	git archive --format=zip --prefix=$(EXTENSION)-$(DIST_VERSION)/ -o $(DIST_ZIP) HEAD
	@echo "$(DIST_ZIP)"

# a copy of the reference data for `make installcheck` (see above)
.PHONY: installcheck-data
installcheck-data: tools
	rm -rf '$(BLOOMCASS_SERVER_DATA)'
	mkdir -m 0755 '$(BLOOMCASS_SERVER_DATA)'
	cp -R test/data/real-filters test/data/vectors test/data/sstables test/data/sstables-datastax test/data/statistics test/data/hll '$(BLOOMCASS_SERVER_DATA)/'
	chmod -R a+rX '$(BLOOMCASS_SERVER_DATA)'
	chmod a+rwx '$(BLOOMCASS_SERVER_DATA)'
	test/make-node.sh '$(BLOOMCASS_SERVER_DATA)/sstables' '$(BLOOMCASS_SERVER_DATA)/node'
	BC_TOOLS_BUILT=1 test/make-codecs.sh '$(BLOOMCASS_SERVER_DATA)/sstables' '$(BLOOMCASS_SERVER_DATA)/codecs'
	test/make-hostile.sh '$(BLOOMCASS_SERVER_DATA)/sstables' '$(BLOOMCASS_SERVER_DATA)/hostile'
