// A hand-written gfx950 kernel in the style of AMD's assembly libraries, for
// the code-object reader's tests: its own .amdgpu_metadata without
// amdhsa.target (the target is in e_flags), a kernel symbol without .size,
// local labels that branch targets resolve to, a kernarg size of 0 in the
// descriptor, padding arguments all named "pad", and 512 VGPRs (256 arch +
// 256 AGPRs, split by accum_offset).  It doubles each 4-byte word of a
// buffer: out[i] = 2 * in[i] for i < n, one word per work-item.
// Assembled by llvm-mc, linked by ld.lld in tests/CMakeLists.txt.
        .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
        .text
        .globl scale_rows
        .p2align 8
        .type scale_rows,@function
scale_rows:
        s_load_dwordx2 s[4:5], s[0:1], 0x0      // out
        s_load_dwordx2 s[6:7], s[0:1], 0x10     // in
        s_load_dword s8, s[0:1], 0x20           // n
        s_lshl_b32 s9, s2, 6
        v_add_u32_e32 v1, s9, v0                // i = group * 64 + lane
        s_waitcnt lgkmcnt(0)
        v_cmp_gt_u32_e32 vcc, s8, v1
        s_and_saveexec_b64 s[10:11], vcc
        s_cbranch_execz label_done
        v_lshlrev_b32_e32 v2, 2, v1
        global_load_dword v3, v2, s[6:7]
        s_waitcnt vmcnt(0)
        v_add_u32_e32 v3, v3, v3
        global_store_dword v2, v3, s[4:5]
label_done:
        s_endpgm

        .rodata
        .p2align 6
        .amdhsa_kernel scale_rows
          .amdhsa_user_sgpr_kernarg_segment_ptr 1
          .amdhsa_system_sgpr_workgroup_id_x 1
          .amdhsa_next_free_vgpr 512
          .amdhsa_next_free_sgpr 16
          .amdhsa_accum_offset 256
          .amdhsa_kernarg_size 0
        .end_amdhsa_kernel

        .amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: scale_rows
    .symbol: scale_rows.kd
    .kernarg_segment_size: 48
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 112
    .vgpr_count: 512
    .max_flat_workgroup_size: 256
    .args:
      - { .name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
      - { .name: pad, .size: 8, .offset: 8, .value_kind: by_value }
      - { .name: in, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global }
      - { .name: pad, .size: 8, .offset: 24, .value_kind: by_value }
      - { .name: n, .size: 4, .offset: 32, .value_kind: by_value }
      - { .name: pad, .size: 4, .offset: 36, .value_kind: by_value }
      - { .name: pad, .size: 8, .offset: 40, .value_kind: by_value }
...
        .end_amdgpu_metadata
