"""The emulated machine: running it with a time limit (sccrun), core maps
(coremap), booting through GRUB (grub), gdb (gdb), reading ELF files (elf),
scc-cc's compiling and linking (sdk), the ELF loader's fuzzer
(loaderfuzz), and what runs cost in host time (hosttime). Imports no
other room of the package."""
