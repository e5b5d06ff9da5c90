# whole.sh - whole NAME VALUE [WHAT]: VALUE is a whole number (of WHAT) that
# the shell's arithmetic reads as written: no leading zero (dash reads 010
# as 8 and refuses 08), at most 8 digits (a longer one is "Illegal number"
# in the first test); else die names NAME.  Sourced by scripts/demo.sh and
# scripts/machine.sh, which define die.
whole() {
    _of=${3:+ of $3}
    case $2 in
    '' | *[!0-9]*) die "$1=$2: expected a whole number$_of" ;;
    0?*) die "$1=$2: a whole number$_of without a leading zero (the shell reads 010 as 8)" ;;
    esac
    [ ${#2} -le 8 ] || die "$1=$2: expected a whole number$_of, at most 8 digits"
}
