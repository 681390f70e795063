// libcurl, plus static inline bridges for its variadic functions, which Swift cannot call.
#ifndef STATEDECK_CURL_SHIM_H
#define STATEDECK_CURL_SHIM_H

#include <curl/curl.h>

/// `curl_easy_setopt` with a `long` (numbers and switches).
static inline CURLcode statedeck_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` with a pointer (strings, which libcurl copies, lists, callback data).
static inline CURLcode statedeck_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_WRITEFUNCTION` and `CURLOPT_HEADERFUNCTION`.
static inline CURLcode statedeck_curl_set_receiver(CURL *handle, CURLoption option, curl_write_callback receiver) {
    return curl_easy_setopt(handle, option, receiver);
}

/// `curl_easy_getinfo` of a `long` (the status, the system's error number).
static inline long statedeck_curl_info_long(CURL *handle, CURLINFO info) {
    long value = 0;
    curl_easy_getinfo(handle, info, &value);
    return value;
}

/// `curl_global_init(CURL_GLOBAL_ALL)`: once, before any handle (the macro is not visible to Swift).
static inline CURLcode statedeck_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

#endif
