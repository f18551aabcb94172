# bloomcass - Cassandra-identical bloom filters for PostgreSQL
#
#   make / make install          build and install the extension (PGXS)
#   make installcheck            pg_regress against a running server
#   make dist                    the PGXN archive, build/dist/bloomcass-<version>.zip
#   make unittest                core unit tests (-Wall -Wextra -Werror)
#   make unittest-sanitize       the same under AddressSanitizer + UBSan
#   make core-c99                compile the core alone, -std=c99, no PostgreSQL
#   make bloomcass-load          the client (libpq); `make` and `make install` include it

EXTENSION = bloomcass
MODULE_big = bloomcass

CORE_SRCS = $(sort $(wildcard src/core/*.c))
GLUE_SRCS = $(sort $(wildcard src/*.c))
OBJS = $(CORE_SRCS:.c=.o) $(GLUE_SRCS:.c=.o)

DATA = $(sort $(wildcard src/sql/bloomcass--*.sql))

REGRESS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --inputdir=. --outputdir=build/regress

# The regression tests read the reference data (test/data) on the server and
# write a few files beside it, in $BLOOMCASS_SERVER_DATA.  test/run-all.sh
# points it at a copy inside its throwaway cluster; without it, `make
# installcheck` makes build/server-data, a copy any local server can read
# and write in.
ifndef BLOOMCASS_SERVER_DATA
BLOOMCASS_SERVER_DATA := $(abspath build/server-data)
BLOOMCASS_MAKE_DATA = yes
endif
export BLOOMCASS_SERVER_DATA

PG_CPPFLAGS = -Isrc/core
PG_CFLAGS = -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers

# The decompressors of a compressed Data.db (src/core/bc_compression.c):
# Debian's liblz4-dev, libsnappy-dev, zlib1g-dev and libzstd-dev.
COMPRESSION_LIBS = -llz4 -lsnappy -lz -lzstd
SHLIB_LINK += $(COMPRESSION_LIBS)

EXTRA_CLEAN = build/server-data build/regress build/unit_tests build/unit_tests_san build/core-c99 \
	build/client bloomcass-load

# The core's symbols stay inside the library: only the SQL-callable
# functions are exported, so nothing of ours can be mistaken for a
# same-named symbol of the server (or the reverse).
$(CORE_SRCS:.c=.o) $(CORE_SRCS:.c=.bc): CFLAGS += -fvisibility=hidden

PG_CONFIG ?= pg_config
SHELL = /bin/bash
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Every object depends on the headers (PGXS tracks no header dependencies).
# This rule comes after PGXS's so that `make` alone still builds `all`.
$(OBJS): src/core/bloomcass_core.h $(wildcard src/*.h)

ifdef BLOOMCASS_MAKE_DATA
installcheck: installcheck-data
endif

# ---------------------------------------------------------------------------
# bloomcass-load: the client that uploads a node's SSTables (libpq).  It
# compiles the core itself, with its own flags, into build/client/.
# ---------------------------------------------------------------------------
CLIENT_SRCS = $(sort $(wildcard src/client/*.c))
CLIENT_CC ?= $(CC)
CLIENT_CFLAGS = -std=c99 -O2 -g -Wall -Wextra -Werror -Isrc/core -Isrc/client \
	-I$(shell $(PG_CONFIG) --includedir)
CLIENT_LIBS = -L$(shell $(PG_CONFIG) --libdir) -lpq $(COMPRESSION_LIBS) -lm
CLIENT_OBJS = $(patsubst src/client/%.c,build/client/%.o,$(CLIENT_SRCS)) \
	$(patsubst src/core/%.c,build/client/core_%.o,$(CORE_SRCS))

build/client/%.o: src/client/%.c src/client/load.h src/core/bloomcass_core.h
	@mkdir -p build/client
	$(CLIENT_CC) $(CLIENT_CFLAGS) -c $< -o $@

build/client/core_%.o: src/core/%.c src/core/bloomcass_core.h
	@mkdir -p build/client
	$(CLIENT_CC) $(CLIENT_CFLAGS) -c $< -o $@

bloomcass-load: $(CLIENT_OBJS)
	$(CLIENT_CC) -o $@ $(CLIENT_OBJS) $(CLIENT_LIBS)

all: bloomcass-load

.PHONY: install-client uninstall-client
install: install-client
uninstall: uninstall-client

install-client: bloomcass-load
	$(MKDIR_P) '$(DESTDIR)$(bindir)'
	$(INSTALL_PROGRAM) bloomcass-load '$(DESTDIR)$(bindir)/bloomcass-load'

uninstall-client:
	rm -f '$(DESTDIR)$(bindir)/bloomcass-load'

# ---------------------------------------------------------------------------
# Core unit tests: plain C, no PostgreSQL headers
# ---------------------------------------------------------------------------
UNIT_SRCS = $(sort $(wildcard test/unit/*.c))
UNIT_CC ?= cc
UNIT_WARN = -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -pedantic
UNIT_DATA ?= test/data

build/unit_tests: $(CORE_SRCS) $(UNIT_SRCS) src/core/bloomcass_core.h test/unit/unit.h
	@mkdir -p build
	$(UNIT_CC) $(UNIT_WARN) -O2 -g -Isrc/core -Itest/unit -o $@ $(CORE_SRCS) $(UNIT_SRCS) $(COMPRESSION_LIBS) -lm

build/unit_tests_san: $(CORE_SRCS) $(UNIT_SRCS) src/core/bloomcass_core.h test/unit/unit.h
	@mkdir -p build
	$(UNIT_CC) $(UNIT_WARN) -O1 -g -fno-omit-frame-pointer \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-Isrc/core -Itest/unit -o $@ $(CORE_SRCS) $(UNIT_SRCS) $(COMPRESSION_LIBS) -lm

.PHONY: unittest unittest-sanitize core-c99 check-symbols

# No symbol exported by the library may also be exported by the server:
# the JIT inliner and the dynamic linker would take one for the other.
check-symbols: all
	@postgres=$$($(PG_CONFIG) --bindir)/postgres; \
	clash=$$(comm -12 <(nm -D --defined-only $(MODULE_big)$(DLSUFFIX) | awk '{print $$3}' | sort -u) \
	                  <(nm -D --defined-only "$$postgres" | awk '{print $$3}' | sort -u)); \
	if [ -n "$$clash" ]; then echo "symbols also exported by the server: $$clash"; exit 1; fi; \
	echo "no exported symbol clashes with the server ($$(nm -D --defined-only $(MODULE_big)$(DLSUFFIX) | grep -c ' T ') exported)"

unittest: build/unit_tests
	./build/unit_tests $(UNIT_DATA)

unittest-sanitize: build/unit_tests_san
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		./build/unit_tests_san $(UNIT_DATA)

core-c99:
	@mkdir -p build/core-c99
	for f in $(CORE_SRCS); do \
		$(UNIT_CC) -std=c99 -pedantic -Wall -Wextra -Werror -c $$f -o build/core-c99/$$(basename $$f .c).o || exit 1; \
	done
	@echo "core compiles alone with -std=c99"

# ---------------------------------------------------------------------------
# PGXN distribution: build/dist/bloomcass-<version>.zip, the committed tree
# (HEAD) under a bloomcass-<version>/ prefix, as `pgxn install` takes it.
# ---------------------------------------------------------------------------
DIST_VERSION = $(shell sed -nE 's/^   "version": *"([^"]+)".*/\1/p' META.json | head -n 1)
DIST_ZIP = build/dist/$(EXTENSION)-$(DIST_VERSION).zip

.PHONY: dist
dist:
	@test -n "$(DIST_VERSION)" || { echo "META.json: no version"; exit 1; }
	@mkdir -p build/dist
	git archive --format=zip --prefix=$(EXTENSION)-$(DIST_VERSION)/ -o $(DIST_ZIP) HEAD
	@echo "$(DIST_ZIP)"

# a copy of the reference data for `make installcheck` (see above)
.PHONY: installcheck-data
installcheck-data:
	rm -rf build/server-data
	mkdir -p build/server-data
	cp -R test/data/real-filters test/data/vectors test/data/sstables build/server-data/
	chmod -R a+rX build/server-data
	chmod a+rwx build/server-data
	test/make-node.sh build/server-data/sstables build/server-data/node
