# Run as `cmake -DSRC_DIR=... -DOUT=... -P embed_web_assets.cmake`: writes a C++ file that holds
# every file of server/web/assets/ as a string with its strong ETag (the first 128 bits of its
# SHA-256, in hex), so the watch pages need no files at run time (like the migrations).
file(GLOB files RELATIVE ${SRC_DIR} ${SRC_DIR}/*.html ${SRC_DIR}/*.css ${SRC_DIR}/*.js)
list(SORT files)
set(body "")
foreach(f ${files})
  file(READ ${SRC_DIR}/${f} text)
  file(SHA256 ${SRC_DIR}/${f} hash)
  string(SUBSTRING ${hash} 0 32 tag)
  set(body "${body}    {\"${f}\", \"\\\"${tag}\\\"\", R\"castra_web(${text})castra_web\"},\n")
endforeach()
file(WRITE ${OUT}.tmp
"// Generated from server/web/assets/ by cmake/embed_web_assets.cmake. Do not edit.
#include \"server/web/web_assets.hpp\"

namespace castra::web {
const std::vector<Asset>& embedded_assets() {
  static const std::vector<Asset> kAssets = {
${body}  };
  return kAssets;
}
}  // namespace castra::web
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
