# Install rules, the CMake package (alkaidConfig.cmake, alkaidConfigVersion.cmake,
# alkaidTargets.cmake), the pkg-config file alkaid.pc and the Debian packages (CPack).
#
# Install components: "dev" (headers, static libraries or the .so links, CMake and pkg-config
# files), "runtime" (shared libraries, BUILD_SHARED_LIBS=ON only), "tool" (bin/alkaid), and one
# per standalone module (flight): its library, headers (include/alkaid/NAME), alkaid-NAME.pc
# and CMake targets file (alkaid-NAME-targets.cmake), so that only its package needs its
# third-party libraries (gRPC and protobuf for flight).
include(CMakePackageConfigHelpers)

set(ALKAID_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/alkaid)
get_property(alkaid_modules GLOBAL PROPERTY ALKAID_MODULES)
get_property(standalone_modules GLOBAL PROPERTY ALKAID_STANDALONE_MODULES)

# Public headers, as they are in the source tree. The generated Flatbuffers code is not one.
set(standalone_header_excludes "")
foreach(m ${standalone_modules})
  list(APPEND standalone_header_excludes PATTERN ${m} EXCLUDE)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/alkaid/${m}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/alkaid COMPONENT ${m}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/alkaid DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev FILES_MATCHING PATTERN "*.h" ${standalone_header_excludes})

set(alkaid_targets alkaid)
foreach(m ${alkaid_modules})
  if(NOT m IN_LIST standalone_modules)
    list(APPEND alkaid_targets alkaid_${m})
  endif()
endforeach()
install(TARGETS ${alkaid_targets} EXPORT alkaidTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT alkaidTargets NAMESPACE alkaid:: DESTINATION ${ALKAID_CMAKE_DIR} COMPONENT dev)
# A standalone module's package holds its library whole (also the shared one): it is small,
# and a separate runtime package per module would buy nothing.
foreach(m ${standalone_modules})
  install(TARGETS alkaid_${m} EXPORT alkaid-${m}-targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ${m}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ${m} NAMELINK_COMPONENT ${m}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ${m}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT alkaid-${m}-targets NAMESPACE alkaid:: DESTINATION ${ALKAID_CMAKE_DIR}
          COMPONENT ${m})
endforeach()

# Third-party libraries that reach a consumer's link line: those of static libraries (as
# $<LINK_ONLY:...>) and public ones of shared libraries. Header-only ones never do.
# alkaid_describe_deps(DEPS OUT_CONFIG OUT_REQUIRES OUT_LIBS): the find_dependency() lines of
# alkaidConfig.cmake, the Requires.private modules and the Libs.private flags of a .pc file.
function(alkaid_describe_deps deps out_config out_requires out_libs)
  set(config "")
  set(requires "")
  set(libs "")
  foreach(dep ${deps})
    get_property(package GLOBAL PROPERTY ALKAID_DEP_PACKAGE_${dep})
    get_property(pkgconfig GLOBAL PROPERTY ALKAID_DEP_PKGCONFIG_${dep})
    get_property(pkgconfig_libs GLOBAL PROPERTY ALKAID_DEP_PKGCONFIG_LIBS_${dep})
    if(package)
      string(REPLACE ";" " " package "${package}")
      string(APPEND config "find_dependency(${package})\n")
    elseif(pkgconfig AND dep MATCHES "^PkgConfig::(.+)$")
      set(prefix ${CMAKE_MATCH_1})
      string(APPEND config
        "if(NOT TARGET ${dep})\n"
        "  find_dependency(PkgConfig)\n"
        "  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET ${pkgconfig})\n"
        "  if(NOT TARGET ${dep})\n"
        "    set(alkaid_FOUND FALSE)\n"
        "    set(alkaid_NOT_FOUND_MESSAGE \"alkaid needs pkg-config module ${pkgconfig}\")\n"
        "    return()\n"
        "  endif()\n"
        "endif()\n")
    else()
      message(FATAL_ERROR "alkaid_dependency(TARGET ${dep}): say PACKAGE or PKGCONFIG")
    endif()
    if(pkgconfig)
      list(APPEND requires ${pkgconfig})
    endif()
    if(pkgconfig_libs)
      list(APPEND libs ${pkgconfig_libs})
    endif()
  endforeach()
  string(REPLACE ";" " " requires "${requires}")
  string(REPLACE ";" " " libs "${libs}")
  set(${out_config} "${config}" PARENT_SCOPE)
  set(${out_requires} "${requires}" PARENT_SCOPE)
  set(${out_libs} "${libs}" PARENT_SCOPE)
endfunction()

get_property(link_deps GLOBAL PROPERTY ALKAID_LINK_DEPS)
list(REMOVE_DUPLICATES link_deps)
alkaid_describe_deps("${link_deps}" ALKAID_CONFIG_DEPENDENCIES ALKAID_PC_REQUIRES_PRIVATE
                     ALKAID_PC_LIBS_PRIVATE)
# Standalone modules (flight): their targets and third-party libraries are loaded only when
# their component is asked for (find_package(alkaid COMPONENTS flight)) and installed (their
# own package); ALKAID_CONFIG_STANDALONE goes after alkaidTargets.cmake in alkaidConfig.cmake.
set(ALKAID_CONFIG_STANDALONE "")
foreach(m ${standalone_modules})
  get_property(deps GLOBAL PROPERTY ALKAID_LINK_DEPS_${m})
  list(REMOVE_DUPLICATES deps)
  alkaid_describe_deps("${deps}" config ALKAID_PC_${m}_REQUIRES_PRIVATE ALKAID_PC_${m}_LIBS_PRIVATE)
  string(APPEND ALKAID_CONFIG_STANDALONE
    "set(alkaid_${m}_FOUND FALSE)\n"
    "if(\"${m}\" IN_LIST alkaid_FIND_COMPONENTS AND\n"
    "   EXISTS \"\${CMAKE_CURRENT_LIST_DIR}/alkaid-${m}-targets.cmake\")\n"
    "${config}"
    "  include(\"\${CMAKE_CURRENT_LIST_DIR}/alkaid-${m}-targets.cmake\")\n"
    "  set(alkaid_${m}_FOUND TRUE)\n"
    "endif()\n")
endforeach()

# Modules in link order (a module before the modules it depends on), for alkaid.pc.
set(remaining ${alkaid_modules})
if(standalone_modules)
  list(REMOVE_ITEM remaining ${standalone_modules})
endif()
set(ordered "")
while(remaining)
  set(progress FALSE)
  foreach(m ${remaining})
    set(needed FALSE)
    foreach(other ${remaining})
      get_property(other_deps GLOBAL PROPERTY ALKAID_MODULE_DEPS_${other})
      if(alkaid_${m} IN_LIST other_deps)
        set(needed TRUE)
      endif()
    endforeach()
    if(NOT needed)
      list(APPEND ordered ${m})
      list(REMOVE_ITEM remaining ${m})
      set(progress TRUE)
      break()
    endif()
  endforeach()
  if(NOT progress)
    message(FATAL_ERROR "alkaid modules depend on each other in a cycle: ${remaining}")
  endif()
endwhile()
set(ALKAID_PC_LIBS "")
foreach(m ${ordered})
  string(APPEND ALKAID_PC_LIBS " -lalkaid_${m}")
endforeach()
string(REPLACE ";" " " ALKAID_MODULE_LIST "${alkaid_modules}")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/alkaidConfig.cmake.in
  ${PROJECT_BINARY_DIR}/alkaidConfig.cmake INSTALL_DESTINATION ${ALKAID_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/alkaidConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/alkaidConfig.cmake ${PROJECT_BINARY_DIR}/alkaidConfigVersion.cmake
        DESTINATION ${ALKAID_CMAKE_DIR} COMPONENT dev)

# alkaid.pc finds its prefix from its own location, so the installed tree can move.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(ALKAID_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(ALKAID_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH up /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
  set(ALKAID_PC_PREFIX "\${pcfiledir}/${up}")
  set(ALKAID_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(ALKAID_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(ALKAID_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/alkaid.pc.in ${PROJECT_BINARY_DIR}/alkaid.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/alkaid.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)
# alkaid-NAME.pc of each standalone module: its library on top of alkaid.pc.
foreach(m ${standalone_modules})
  set(ALKAID_PC_MODULE ${m})
  set(ALKAID_PC_MODULE_REQUIRES_PRIVATE "${ALKAID_PC_${m}_REQUIRES_PRIVATE}")
  set(ALKAID_PC_MODULE_LIBS_PRIVATE "${ALKAID_PC_${m}_LIBS_PRIVATE}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/alkaid-module.pc.in
                 ${PROJECT_BINARY_DIR}/alkaid-${m}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/alkaid-${m}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT ${m})
endforeach()

# ---- Debian packages: cpack -G DEB in the build tree -----------------------------------------
set(CPACK_PACKAGE_NAME alkaid)
set(CPACK_PACKAGE_VENDOR "alkaid")
set(CPACK_PACKAGE_CONTACT "alkaid developers <alkaid@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
# Depends of packages with binaries come from dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libalkaid-dev)
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "alkaid: Apache Arrow in C++20 - development files\nHeaders, libraries, CMake package (find_package(alkaid)) and pkg-config file (alkaid.pc).")
set(CPACK_DEBIAN_TOOL_PACKAGE_NAME alkaid)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOL_DESCRIPTION
    "alkaid: Apache Arrow in C++20 - command-line tool\nConverts, prints and validates Arrow IPC files and streams.")
# A -dev package needs the -dev packages of the libraries on its link interface (static
# libraries carry their dependencies' symbols unresolved): the Debian packages owning their
# pkg-config files. alkaid_debian_dev_depends(DEPS OUT): those packages, comma-separated.
function(alkaid_debian_dev_depends deps out)
  set(packages "")
  foreach(dep ${deps})
    get_property(pkgconfig GLOBAL PROPERTY ALKAID_DEP_PKGCONFIG_${dep})
    if(pkgconfig)
      execute_process(COMMAND dpkg-query -S ${pkgconfig}.pc OUTPUT_VARIABLE owner
                      ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      string(REGEX REPLACE ":.*" "" owner "${owner}")
      if(owner)
        list(APPEND packages ${owner})
      endif()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES packages)
  string(REPLACE ";" ", " packages "${packages}")
  set(${out} "${packages}" PARENT_SCOPE)
endfunction()
alkaid_debian_dev_depends("${link_deps}" CPACK_DEBIAN_DEV_PACKAGE_DEPENDS)
if(BUILD_SHARED_LIBS)
  set(CPACK_COMPONENTS_ALL dev runtime tool ${standalone_modules})
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "libalkaid${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
  set(CPACK_COMPONENT_DEV_DEPENDS runtime)
  set(CPACK_COMPONENT_TOOL_DEPENDS runtime)
else()
  set(CPACK_COMPONENTS_ALL dev tool ${standalone_modules})
endif()
# libalkaid-NAME-dev per standalone module: on top of libalkaid-dev of the same version and
# the -dev packages of the module's own libraries.
foreach(m ${standalone_modules})
  string(TOUPPER ${m} M)
  set(CPACK_DEBIAN_${M}_PACKAGE_NAME libalkaid-${m}-dev)
  get_property(deps GLOBAL PROPERTY ALKAID_LINK_DEPS_${m})
  alkaid_debian_dev_depends("${deps}" module_depends)
  set(CPACK_DEBIAN_${M}_PACKAGE_DEPENDS
      "${CPACK_DEBIAN_DEV_PACKAGE_NAME} (= ${PROJECT_VERSION}), ${module_depends}")
endforeach()
set(CPACK_DEBIAN_FLIGHT_DESCRIPTION
    "alkaid: Apache Arrow in C++20 - Arrow Flight (development files)\nThe alkaid_flight library (Arrow Flight client and server over gRPC), its headers, the\nCMake component (find_package(alkaid COMPONENTS flight)) and alkaid-flight.pc.")
include(CPack)
