# flyhoist.spec_param asks the library: the line it writes is parsed and
# verified by the spec dialect through the C API, so a value that does not
# fit, a type the op does not take, an `equals` of the wrong type or a name
# that would smuggle in a second op fail at the call, in the verifier's words.
# RUN: python3 %s 2>&1 | FileCheck %s

from flyhoist import spec_param

print(spec_param('w', 'max_blocks_per_seq', 128))
print(spec_param('s', 'stride', (1 << 64) - 1, 'i64', equals='st'))
# CHECK: %w = spec.param "max_blocks_per_seq" = 128 : index
# CHECK-NEXT: %s = spec.param "stride" = -1 equals %st : i64

for args in (('w', 'x', 300, 'i8'), ('w', 'x', 1, 'f32'), ('w', '', 1),
             ('w', 'a" = 1 : index\n  %q = spec.param "b', 2),
             ('w', 'x', 1 << 70), ('w', 'x', 1, 'index', 'w')):
    try:
        print('accepted', spec_param(*args))
    except ValueError as error:
        print('ValueError:', str(error).replace('\n', '\\n'))
# CHECK-NEXT: ValueError: {{.*}} error: 'spec.param' op value 300 of parameter 'x' does not fit 'i8'
# CHECK-NEXT: ValueError: {{.*}} error: 'spec.param' op result #0 must be signless integer or index, but got 'f32'
# CHECK-NEXT: ValueError: {{.*}} error: 'spec.param' op needs a non-empty parameter name
# CHECK-NEXT: ValueError: {{.*}} is not one spec.param (it parses as spec.param, spec.param)
# CHECK-NEXT: ValueError: {{.*}} integer value too large
# CHECK-NEXT: ValueError: {{.*}} redefinition of SSA value '%w'
try:
    spec_param('w', 'x', True)
except TypeError as error:
    print('TypeError:', error)
# CHECK-NEXT: TypeError: x: spec.param holds an int, not bool
