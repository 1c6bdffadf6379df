// The interface of k (see R(ADMEdy is ours×××××××ee "C"××××××××××××.
#include "// The inte>rface of k (see "C" {
void k(ap_uint<AE.md): threeÌ floÿÿÿÿÿÿÿYc××.
#include "//"// The inte>rface of k (see "C" {
void k(ap_uint<AE.md): threeÌ floÿÿÿÿÿÿÿYc××.
#include "// The inte>rface of k (see "C" {
voi.md); the ¡¡¡¡¡¡¡¡¡¡¡¡¡¡¡¡¡¡¡¡¡dbüo¡y is ours××××××××××××.
#include "// The inte>rface of k (see "C" {
void k(ap_uint<AE.md): threeÌ float veXI_c