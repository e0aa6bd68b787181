# The vocabularies are the library's: the package reads them from the C API
# (flyhoistPrintContractKinds) and copies none. What is the package's own is
# how each precondition kind is checked and each argument part read: every
# kind and part the library lists has one, and an unknown kind, reason or
# schema version is a clear error, never a silent full specialization.
# RUN: python3 %s 2>&1 | FileCheck %s

from flyhoist import ManifestError
from flyhoist import contract
from flyhoist.ir import contract_kinds

kinds = contract_kinds()
known = contract.vocabularies()

# CHECK-LABEL: the pass's vocabularies
print('the pass\'s vocabularies')
print('version', kinds['version'], 'reader', contract.MANIFEST_VERSION)
for field in ('reasons', 'preconditions', 'argument_parts'):
    print(field, 'same as the library:', known[field] == set(kinds[field]),
          len(known[field]))
print('kinds Python cannot check',
      sorted(known['preconditions'] - set(contract.PRECONDITION_CHECKS)))
print('Python-only kinds',
      sorted(set(contract.PRECONDITION_CHECKS) - known['preconditions']))
print('parts not readable', sorted(known['argument_parts'] - {'value'}
                                   - set(contract._PART_FIELDS)))
# CHECK-NEXT: version 3 reader 3
# CHECK-NEXT: reasons same as the library: True {{[1-9][0-9]*}}
# CHECK-NEXT: preconditions same as the library: True 6
# CHECK-NEXT: argument_parts same as the library: True 4
# CHECK-NEXT: kinds Python cannot check []
# CHECK-NEXT: Python-only kinds []
# CHECK-NEXT: parts not readable []

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
# CHECK-NEXT: ManifestError: unknown precondition kind 'value-is-prime'; the library writes divisible-by, equals, equals-constant, equals-parameter, equals-unverifiable, range
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
