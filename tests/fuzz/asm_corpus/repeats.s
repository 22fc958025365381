.set n, 4
.rept n
s_nop 0
.endr
.skip 16
.fill 4, 4, 0
