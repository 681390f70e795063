// libcurl, opened with dlopen when the first http request needs it, plus static inline bridges
// for its variadic functions, which Swift cannot call. Not linked: a deck without http sources
// then never maps libcurl and the TLS, SSH, LDAP and Kerberos libraries it brings.
#ifndef STATEDECK_CURL_SHIM_H
#define STATEDECK_CURL_SHIM_H

#include <curl/curl.h>
#include <dlfcn.h>

/// The libcurl functions StateDeck calls, found in `libcurl.so.4` by `statedeck_curl_load`.
typedef struct {
    CURL *(* _Nonnull easy_init)(void);
    void (* _Nonnull easy_cleanup)(CURL *handle);
    void (* _Nonnull easy_reset)(CURL *handle);
    CURLcode (* _Nonnull easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (* _Nonnull easy_getinfo)(CURL *handle, CURLINFO info, ...);
    const char *_Nonnull (* _Nonnull easy_strerror)(CURLcode code);
    CURLcode (* _Nonnull global_init)(long flags);
    struct curl_slist *(* _Nonnull slist_append)(struct curl_slist *list, const char *text);
    void (* _Nonnull slist_free_all)(struct curl_slist *list);
    CURLM *(* _Nonnull multi_init)(void);
    CURLMcode (* _Nonnull multi_cleanup)(CURLM *multi);
    CURLMcode (* _Nonnull multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (* _Nonnull multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (* _Nonnull multi_perform)(CURLM *multi, int *running);
    CURLMcode (* _Nonnull multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready);
    CURLMcode (* _Nonnull multi_wakeup)(CURLM *multi);
    CURLMsg *(* _Nonnull multi_info_read)(CURLM *multi, int *queued);
    const char *_Nonnull (* _Nonnull multi_strerror)(CURLMcode code);
    CURLMcode (* _Nonnull multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLSH *(* _Nonnull share_init)(void);
    CURLSHcode (* _Nonnull share_setopt)(CURLSH *share, CURLSHoption option, ...);
    CURLSHcode (* _Nonnull share_cleanup)(CURLSH *share);
} statedeck_curl_api;

#define STATEDECK_CURL_FIND(field) \
    if (!(api->field = (__typeof__(api->field))dlsym(library, "curl_" #field))) return 0;

/// `dlopen("libcurl.so.4")` and `dlsym` of every function in `api`, then
/// `curl_global_init(CURL_GLOBAL_ALL)` (a macro Swift cannot see). 0 when something is missing:
/// `dlerror()` says what.
static inline int statedeck_curl_load(statedeck_curl_api *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    STATEDECK_CURL_FIND(easy_init)
    STATEDECK_CURL_FIND(easy_cleanup)
    STATEDECK_CURL_FIND(easy_reset)
    STATEDECK_CURL_FIND(easy_setopt)
    STATEDECK_CURL_FIND(easy_getinfo)
    STATEDECK_CURL_FIND(easy_strerror)
    STATEDECK_CURL_FIND(global_init)
    STATEDECK_CURL_FIND(slist_append)
    STATEDECK_CURL_FIND(slist_free_all)
    STATEDECK_CURL_FIND(multi_init)
    STATEDECK_CURL_FIND(multi_cleanup)
    STATEDECK_CURL_FIND(multi_add_handle)
    STATEDECK_CURL_FIND(multi_remove_handle)
    STATEDECK_CURL_FIND(multi_perform)
    STATEDECK_CURL_FIND(multi_poll)
    STATEDECK_CURL_FIND(multi_wakeup)
    STATEDECK_CURL_FIND(multi_info_read)
    STATEDECK_CURL_FIND(multi_strerror)
    STATEDECK_CURL_FIND(multi_setopt)
    STATEDECK_CURL_FIND(share_init)
    STATEDECK_CURL_FIND(share_setopt)
    STATEDECK_CURL_FIND(share_cleanup)
    return api->global_init(CURL_GLOBAL_ALL) == CURLE_OK;
}

#undef STATEDECK_CURL_FIND

/// `curl_easy_setopt` with a `long` (numbers and switches).
static inline CURLcode statedeck_curl_set_long(statedeck_curl_api api, CURL *handle, CURLoption option,
                                               long value) {
    return api.easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` with a pointer (strings, which libcurl copies, lists, callback data).
static inline CURLcode statedeck_curl_set_pointer(statedeck_curl_api api, CURL *handle, CURLoption option,
                                                  const void *value) {
    return api.easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_WRITEFUNCTION` and `CURLOPT_HEADERFUNCTION`.
static inline CURLcode statedeck_curl_set_receiver(statedeck_curl_api api, CURL *handle, CURLoption option,
                                                   curl_write_callback receiver) {
    return api.easy_setopt(handle, option, receiver);
}

/// `curl_multi_setopt` with a `long` (the connection limits).
static inline CURLMcode statedeck_curl_multi_set_long(statedeck_curl_api api, CURLM *multi, CURLMoption option,
                                                      long value) {
    return api.multi_setopt(multi, option, value);
}

/// `curl_share_setopt(CURLSHOPT_SHARE, data)`: the handles using `share` share `data` (TLS
/// sessions); `data` travels as the `int` an enum promotes to, which `curl_share_setopt` reads.
static inline CURLSHcode statedeck_curl_share_data(statedeck_curl_api api, CURLSH *share, curl_lock_data data) {
    return api.share_setopt(share, CURLSHOPT_SHARE, data);
}

/// `curl_easy_getinfo` of a `long` (the status, the system's error number).
static inline long statedeck_curl_info_long(statedeck_curl_api api, CURL *handle, CURLINFO info) {
    long value = 0;
    api.easy_getinfo(handle, info, &value);
    return value;
}

/// `curl_easy_getinfo` of a `curl_off_t` (the times, in microseconds).
static inline curl_off_t statedeck_curl_info_off_t(statedeck_curl_api api, CURL *handle, CURLINFO info) {
    curl_off_t value = 0;
    api.easy_getinfo(handle, info, &value);
    return value;
}

/// `curl_easy_getinfo(CURLINFO_CERTINFO)`: the chain of the handshake the transfer made, each
/// certificate a list of "Name:value" lines (`CURLOPT_CERTINFO`); NULL when it made none.
static inline struct curl_certinfo *statedeck_curl_info_certificates(statedeck_curl_api api, CURL *handle) {
    struct curl_certinfo *chain = NULL;
    api.easy_getinfo(handle, CURLINFO_CERTINFO, &chain);
    return chain;
}

#endif
