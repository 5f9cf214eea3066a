! A Fortran GRAPE-6 client (trailing-underscore ABI, arguments by reference): two bodies, the force of one on
! the other against Newton, and ni > npipes refused. Exit status 0 on success.
program g6_fortran
  implicit none
  integer :: g6_open, g6_npipes, g6_set_ti, g6_set_j_particle, g6calc_lasthalf, g6_close
  integer :: ierr, np, idx(1), big
  double precision :: x(3), v(3), a2(3), j6(3), k18(3), xi(3,1), vi(3,1), acc(3,1), jerk(3,1), pot(1), h2(1)
  double precision :: eps2
  double precision, allocatable :: bx(:,:), bp(:)
  integer, allocatable :: bidx(:)
  ierr = g6_open(0)
  np = g6_npipes()
  x = (/ 2d0, 0d0, 0d0 /); v = 0d0; a2 = 0d0; j6 = 0d0; k18 = 0d0
  ierr = ierr + g6_set_j_particle(0, 0, 0, 0d0, 0d0, 3d0, k18, j6, a2, v, x)
  ierr = ierr + g6_set_ti(0, 0d0)
  xi = 0d0; vi = 0d0; h2 = 0d0; idx(1) = 1; eps2 = 0d0
  call g6calc_firsthalf(0, 1, 1, idx, xi, vi, acc, jerk, pot, eps2, h2)
  ierr = ierr + g6calc_lasthalf(0, 1, 1, idx, xi, vi, eps2, h2, acc, jerk, pot)
  if (ierr /= 0 .or. abs(acc(1,1) - 0.75d0) > 1d-6 .or. abs(pot(1) + 1.5d0) > 1d-6) then
    print *, 'g6_fortran: wrong force', ierr, acc(:,1), pot
    stop 1
  end if
  big = np + 1
  allocate(bx(3, big), bp(big), bidx(big))
  bx = 0d0; bp = 0d0; bidx = 0
  call g6calc_firsthalf(0, 1, big, bidx, bx, bx, bx, bx, bp, eps2, bp)
  if (g6calc_lasthalf(0, 1, big, bidx, bx, bx, eps2, bp, bx, bx, bp) >= 0) then
    print *, 'g6_fortran: ni > npipes accepted'
    stop 1
  end if
  ierr = g6_close(0)
  print *, 'g6_fortran: force and potential as Newton, ni > npipes refused'
end program g6_fortran
