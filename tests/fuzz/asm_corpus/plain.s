.text
s_nop 0
s_endpgm
