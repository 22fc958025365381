.data
.incbin "secret"
.ascii "TILELAB-FUZZ-SECRET"
