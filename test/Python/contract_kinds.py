# The package knows every reason and precondition kind the pass can write:
# the C API lists them from the spec dialect's enums, this compares the sets
# both ways, and an unknown kind, reason or schema version is a clear error,
# never a silent full specialization.
# RUN: python3 %s 2>&1 | FileCheck %s

from flyhoist import ManifestError
from flyhoist import contract
from flyhoist.ir import contract_kinds

kinds = contract_kinds()

# CHECK-LABEL: the pass's vocabularies
print('the pass\'s vocabularies')
print('version', kinds['version'], 'reader', contract.MANIFEST_VERSION)
for field, known in (('reasons', contract.KEEP_REASONS),
                     ('preconditions', contract.PRECONDITION_KINDS),
                     ('argument_parts', contract.ARGUMENT_PARTS)):
    listed = set(kinds[field])
    print(f'{field}: {len(listed)} listed, unknown here '
          f'{sorted(listed - known)}, not listed {sorted(known - listed)}')
# CHECK-NEXT: version 3 reader 3
# CHECK-NEXT: reasons: {{[1-9][0-9]*}} listed, unknown here [], not listed []
# CHECK-NEXT: preconditions: 6 listed, unknown here [], not listed []
# CHECK-NEXT: argument_parts: 4 listed, unknown here [], not listed []

# Every kind compiles into a check.
# CHECK-LABEL: checks
print('checks')
examples = {
    'divisible-by': ({'divisor': 16}, 32, None),
    'range': ({'min': 0, 'max': 2147483647}, 5, None),
    'equals': ({'argument': 1, 'part': 'stride', 'index': 0}, 64,
               [None, {'strides': [64, 1]}]),
    'equals-parameter': ({'name': 'pages'}, 4, None),
    'equals-constant': ({'value': 7}, 7, None),
    'equals-unverifiable': ({'description': "result 0 of 'x.y'"}, 7, None),
}
for kind in sorted(kinds['preconditions']):
    fields, value, args = examples[kind]
    check = contract.compile_precondition(dict(fields, kind=kind))
    print(kind, check(value, args, {'pages': 4}), check(value + 1, args,
                                                       {'pages': 4}))
# CHECK-NEXT: divisible-by True False
# CHECK-NEXT: equals True False
# CHECK-NEXT: equals-constant True False
# CHECK-NEXT: equals-parameter True False
# CHECK-NEXT: equals-unverifiable False False
# CHECK-NEXT: range True True

# CHECK-LABEL: errors
print('errors')
for bad in ({'kind': 'value-is-prime'}, 'value % 16 == 0',
            {'kind': 'range', 'min': 0}):
    try:
        contract.compile_precondition(bad)
        print('accepted', bad)
    except ManifestError as error:
        print('ManifestError:', error)
# CHECK-NEXT: ManifestError: unknown precondition kind 'value-is-prime'; this package knows divisible-by, equals, equals-constant, equals-parameter, equals-unverifiable, range
# CHECK-NEXT: ManifestError: a precondition is an object with a kind, not 'value % 16 == 0'
# CHECK-NEXT: ManifestError: precondition {'kind': 'range', 'min': 0} lacks max
for manifest in ({'version': 2, 'kernels': []},
                 {'version': 3, 'kernels': [{'symbol': '@k', 'kept': [
                     {'name': 'n', 'reason': 'bad-luck'}]}]}):
    try:
        contract.check_manifest(manifest)
        print('accepted', manifest)
    except ManifestError as error:
        print('ManifestError:', error)
# CHECK-NEXT: ManifestError: manifest version 2; this package reads version 3
# CHECK-NEXT: ManifestError: @k: unknown reason 'bad-luck' for 'n'
