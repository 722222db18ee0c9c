# Run as `cmake -DSRC_DIR=... -DOUT=... [-DFUNCTION=...] -P embed_migrations.cmake`: writes a C++
# file that holds every SRC_DIR/NNNN_name.sql as a string, so the server needs no files at run
# time. NAMESPACE and FUNCTION name the table's accessor (castra::store::embedded_migrations,
# SQLite's, unless given).
if(NOT FUNCTION)
  set(FUNCTION embedded_migrations)
endif()
if(NOT NAMESPACE)
  set(NAMESPACE castra::store)
endif()
file(GLOB files RELATIVE ${SRC_DIR} ${SRC_DIR}/[0-9][0-9][0-9][0-9]_*.sql)
list(SORT files)
set(body "")
foreach(f ${files})
  string(SUBSTRING ${f} 0 4 num)
  math(EXPR num "${num} + 0")
  file(READ ${SRC_DIR}/${f} sql)
  set(body "${body}    {${num}, \"${f}\", R\"castra_sql(${sql})castra_sql\"},\n")
endforeach()
file(WRITE ${OUT}.tmp
"// Generated from ${SRC_DIR}/*.sql by cmake/embed_migrations.cmake. Do not edit.
#include \"server/store/migrations.hpp\"

namespace ${NAMESPACE} {
const std::vector<castra::store::Migration>& ${FUNCTION}() {
  static const std::vector<castra::store::Migration> kMigrations = {
${body}  };
  return kMigrations;
}
}  // namespace ${NAMESPACE}
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
