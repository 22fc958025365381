.macro m a
.inc\a "/etc/passwd"
.endm
m lude
