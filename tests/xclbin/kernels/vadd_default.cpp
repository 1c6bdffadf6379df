// The interface of the asymmetric-units example's vadd (see README.md):
// no INTERFACE pragma, so Vitis's defaults apply. The body is ours.
extern "C" {
void vadd(const unsigned int *in1, const unsigned int *in2,
          unsigned int *out_r, int size)
{
    for (int i = 0; i < size; i++)
        out_r[i] = in1[i] + in2[i];
}
}
