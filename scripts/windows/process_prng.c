/* A test-only bcryptprimitives.dll for Wine 8, which has none. Rust's standard library on Windows takes its
 * random seeds (HashMap keys) from ProcessPrng, which bcryptprimitives.dll exports on Windows 10 and later;
 * without the DLL Wine refuses to start the program at all. This one answers ProcessPrng with
 * RtlGenRandom (advapi32's SystemFunction036), which Wine does have.
 *
 * scripts/windows_test.sh builds it with MinGW and puts it beside chuhan.exe in its scratch directory, so
 * that Wine loads it instead of looking for the system's. It never goes into a release: real Windows has
 * the DLL. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a 32-bit length; ProcessPrng's is a SIZE_T. */
    while (length > 0) {
        ULONG part = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, part))
            return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
