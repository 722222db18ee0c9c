# Run as `cmake -DSRC_DIR=... -DOUT=... -P embed_migrations.cmake`: writes a C++ file that
# holds every migrations/NNNN_name.sql as a string, so the server needs no files at run time.
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
"// Generated from migrations/*.sql by cmake/embed_migrations.cmake. Do not edit.
#include \"server/store/migrations.hpp\"

namespace castra::store {
const std::vector<Migration>& embedded_migrations() {
  static const std::vector<Migration> kMigrations = {
${body}  };
  return kMigrations;
}
}  // namespace castra::store
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
