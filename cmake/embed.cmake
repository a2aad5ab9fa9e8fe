# Turn a text file into a C source defining `const char NAME[]` (NUL-terminated),
# so the binary carries templates/ and needs no files at run time.
# Usage: cmake -DINPUT=... -DOUTPUT=... -DNAME=... -P embed.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" n)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUTPUT}.tmp" "/* generated from ${INPUT} by cmake/embed.cmake; do not edit */\n#include <stddef.h>\nconst char ${NAME}[] = {\n${body}0x00};\nconst size_t ${NAME}_len = sizeof ${NAME} - 1;\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
