-- A rocpd database in the documented layout (schema version 3): tables named
-- with a uuid suffix, views without it.  Built by tilelab's tests; NOT real
-- rocprofv3 output (no public sample exists).  Two dispatches of gemm_bf16
-- and one of rmsnorm_bf16 on agent 2; SQ_WAVES and the LDS counters recorded
-- per hardware instance (two rows each), which the importer sums.
CREATE TABLE "rocpd_metadata_00ab" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "tag" TEXT NOT NULL, "value" TEXT NOT NULL);
CREATE VIEW rocpd_metadata AS SELECT * FROM "rocpd_metadata_00ab";
INSERT INTO "rocpd_metadata_00ab" (tag, value) VALUES ('schema_version', '3'), ('uuid', '_00ab');
CREATE TABLE "rocpd_info_kernel_symbol_00ab" ("id" INTEGER PRIMARY KEY, "kernel_name" TEXT, "display_name" TEXT,
  "group_segment_size" INTEGER, "sgpr_count" INTEGER, "arch_vgpr_count" INTEGER, "accum_vgpr_count" INTEGER);
CREATE VIEW rocpd_info_kernel_symbol AS SELECT * FROM "rocpd_info_kernel_symbol_00ab";
INSERT INTO "rocpd_info_kernel_symbol_00ab" VALUES (7, 'gemm_bf16', 'gemm_bf16', 65536, 32, 128, 64),
                                                   (8, 'rmsnorm_bf16', 'rmsnorm_bf16', 16, 24, 48, 0);
CREATE TABLE "rocpd_kernel_dispatch_00ab" ("id" INTEGER PRIMARY KEY, "agent_id" INTEGER, "kernel_id" INTEGER,
  "dispatch_id" INTEGER, "queue_id" INTEGER, "stream_id" INTEGER, "start" INTEGER, "end" INTEGER,
  "workgroup_size_x" INTEGER, "workgroup_size_y" INTEGER, "workgroup_size_z" INTEGER,
  "grid_size_x" INTEGER, "grid_size_y" INTEGER, "grid_size_z" INTEGER, "event_id" INTEGER);
CREATE VIEW rocpd_kernel_dispatch AS SELECT * FROM "rocpd_kernel_dispatch_00ab";
INSERT INTO "rocpd_kernel_dispatch_00ab" VALUES
  (1, 2, 7, 10, 1, 1, 1000000, 1250000, 256, 1, 1, 8192, 32, 1, 100),
  (2, 2, 7, 11, 1, 1, 2000000, 2240000, 256, 1, 1, 8192, 32, 1, 101),
  (3, 2, 8, 12, 1, 1, 3000000, 3010000, 256, 1, 1, 1048576, 1, 1, 102);
CREATE TABLE "rocpd_info_pmc_00ab" ("id" INTEGER PRIMARY KEY, "name" TEXT, "block" TEXT, "expression" TEXT, "is_derived" INTEGER);
CREATE VIEW rocpd_info_pmc AS SELECT * FROM "rocpd_info_pmc_00ab";
INSERT INTO "rocpd_info_pmc_00ab" VALUES (1, 'SQ_WAVES', 'SQ', '', 0), (2, 'SQ_LDS_BANK_CONFLICT', 'SQ', '', 0),
                                         (3, 'SQ_LDS_IDX_ACTIVE', 'SQ', '', 0);
CREATE TABLE "rocpd_pmc_event_00ab" ("id" INTEGER PRIMARY KEY, "event_id" INTEGER, "pmc_id" INTEGER, "value" REAL);
CREATE VIEW rocpd_pmc_event AS SELECT * FROM "rocpd_pmc_event_00ab";
INSERT INTO "rocpd_pmc_event_00ab" (event_id, pmc_id, value) VALUES
  (100, 1, 512), (100, 1, 512), (100, 2, 1000), (100, 2, 24), (100, 3, 8000), (100, 3, 192),
  (101, 1, 500), (101, 1, 524), (101, 2, 0), (101, 2, 0), (101, 3, 4096), (101, 3, 4096),
  (102, 1, 16384), (102, 1, 0);
